package org.shmem4j.core;

import java.util.List;
import java.util.Map;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.ShmemException;
import org.shmem4j.Team;
import org.shmem4j.ThreadLevel;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.bootstrap.SingletonBootstrap;
import org.shmem4j.bootstrap.launcher.LaunchEnv;
import org.shmem4j.bootstrap.launcher.LauncherBootstrap;
import org.shmem4j.bootstrap.pmix.PmixBootstrap;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;
import org.shmem4j.transport.shm.RegionMappings;

/**
 * Entry point behind {@code Shmem.init}: finds this PE's {@link PeSlot} (the in-process job's, if
 * the calling thread runs as a PE of one, else the process's) and starts or re-uses its runtime.
 */
public final class Runtimes {
    /** Bound by an in-process job around each PE's thread. */
    public static final ScopedValue<PeSlot> IN_PROCESS_PE = ScopedValue.newInstance();

    private Runtimes() {
    }

    /** The process is the PE: its slot is process-wide by nature, created on first use. */
    private static final class ProcessPe {
        static final PeSlot SLOT = new PeSlot(() -> processBootstrap(System.getenv()), new RegionMappings());

        /** oshrun's variables first (an oshrun inside an srun step passes PMIx's on too), then a PMIx server, else alone. */
        private static Bootstrap processBootstrap(Map<String, String> env) {
            if (env.containsKey(LaunchEnv.RENDEZVOUS)) {
                return LauncherBootstrap.processInstance(env, arrivalTimeoutS(env));
            }
            return PmixBootstrap.inEnvironment(env) ? PmixBootstrap.processInstance(arrivalTimeoutS(env)) : new SingletonBootstrap();
        }

        /** How long start-up waits for every PE: the bootstraps get it from here, as they sit below the parameters. */
        private static int arrivalTimeoutS(Map<String, String> env) {
            return Parameters.from(env, List.of(Params.BOOTSTRAP_TIMEOUT_S)).get(Params.BOOTSTRAP_TIMEOUT_S);
        }
    }

    private static PeSlot slot() {
        return IN_PROCESS_PE.isBound() ? IN_PROCESS_PE.get() : ProcessPe.SLOT;
    }

    /** shmem_init / shmem_init_thread. */
    public static Shmem init(ThreadLevel requested) {
        if (requested == null) {
            throw new IllegalArgumentException("shmem_init_thread: requested thread level is null");
        }
        PeSlot slot = slot();
        synchronized (slot) {
            PeRuntime current = slot.current();
            if (current != null) {
                current.retain();
                return current;
            }
            PeRuntime runtime = start(slot, requested);
            slot.set(runtime);
            return runtime;
        }
    }

    /** The failure of this process's shmem_init that the launcher reports for the job, or null. */
    private static volatile Throwable initFailureReported;

    /**
     * A new runtime; when its init fails, the launcher is told first, so that a configuration
     * error (the same on every PE) is reported once for the job instead of once per PE.
     */
    private static PeRuntime start(PeSlot slot, ThreadLevel requested) {
        try {
            return new PeRuntime(slot, requested);
        } catch (ShmemException e) {
            Bootstrap bootstrap = slot == ProcessPe.SLOT ? slot.connected() : null;
            if (bootstrap != null && bootstrap.initFailed(e.getMessage())) {
                initFailureReported = e;
            }
            throw e;
        }
    }

    /**
     * True when {@code t}, or one of its causes, is a failure of this process's shmem_init that the
     * launcher already reported: the PE's entry point then ends it without a stack trace.
     */
    public static boolean reportedByLauncher(Throwable t) {
        Throwable reported = initFailureReported;
        for (Throwable c = t; c != null && reported != null; c = c.getCause()) {
            if (c == reported) {
                return true;
            }
        }
        return false;
    }

    /**
     * start_pes: initializes like shmem_init, but a second call has no effect (it is not counted)
     * and the PE is finalized implicitly when its program ends ({@link #endOfProgram}).
     */
    public static Shmem startPes() {
        PeSlot slot = slot();
        synchronized (slot) {
            PeRuntime current = slot.current();
            if (current == null) {
                current = start(slot, ThreadLevel.MULTIPLE);
                slot.set(current);
                slot.finalizeAtEnd();
            }
            return current;
        }
    }

    /**
     * The program of the PE of {@code slot} returned: a PE that start_pes initialized and that is
     * still initialized is finalized now (spec 9.1.13: implicit finalization, collective).
     */
    public static void endOfProgram(PeSlot slot) {
        PeRuntime runtime = slot.takeImplicitFinalize();
        while (runtime != null && slot.current() == runtime) {
            runtime.close();
        }
    }

    /** {@link #endOfProgram(PeSlot)} for the process's PE (oshrun's PeMain, after main). */
    public static void endOfProgram() {
        endOfProgram(ProcessPe.SLOT);
    }

    /** True while the PE of {@code slot} has an initialized library. */
    public static boolean initializedIn(PeSlot slot) {
        return slot.current() != null;
    }

    /**
     * Releases the resources of a PE that ended (returned or failed) without finalizing, so an
     * in-process job leaves no mappings behind.
     */
    public static void abandon(PeSlot slot) {
        PeRuntime runtime = slot.current();
        if (runtime != null) {
            runtime.abandon();
        }
    }

    /** {@code SHMEM_TEAM_INVALID} (for {@code Team.INVALID}). */
    public static Team invalidTeam() {
        return InvalidTeam.INSTANCE;
    }

    /** The deprecated API's state of the PE of {@code shmem} (for {@code Shmem.legacy()}). */
    public static LegacySupport legacySupport(Shmem shmem) {
        return switch (shmem) {
            case ShmemBase pe -> pe.legacySupport();
        };
    }

    /** {@code SHMEM_CTX_INVALID} (for {@code Context.INVALID}). */
    public static Context invalidContext() {
        return InvalidContext.INSTANCE;
    }

    /** shmem_query_initialized. */
    public static boolean queryInitialized() {
        return slot().current() != null;
    }
}
