package org.shmem4j.inprocess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.shmem4j.ShmemGlobalExit;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.bootstrap.PeRanges;
import org.shmem4j.core.PeSlot;
import org.shmem4j.core.Runtimes;
import org.shmem4j.transport.shm.RegionMappings;

/**
 * Runs an OpenSHMEM program with its PEs as threads of this JVM: each thread calls the same
 * program body, and {@code Shmem.init()} inside it returns that thread's PE. The PEs share memory
 * as separate processes do (through the heap files, each mapped once in this JVM and shared by
 * the PEs), so this is the real data path with a faster start; tests use it, and so can programs
 * that want PEs without a launcher. A PE's heap stays mapped until the job's last PE finalizes, so
 * a segment it handed out ({@code elements()}, {@code ptr}) can be read after its own finalize
 * while other PEs of the job still run; the library's own routines still refuse to run then.
 *
 * <p>A PE that throws ends the job: the others' waits fail with the reason, instead of hanging.
 */
public final class InProcessJob {
    /** A PE's program; it calls {@code Shmem.init()} like a {@code main} would. */
    @FunctionalInterface
    public interface Program {
        void run() throws Exception;
    }

    /**
     * How a job ended: the exit status (as {@code oshrun} would report it), every failure (the
     * time-out's first, with the PEs' stacks, then the PEs' in rank order) and the PEs' failures by rank.
     */
    public record Result(int status, List<Throwable> failures, boolean timedOut, SortedMap<Integer, Throwable> failuresByPe) {
        /**
         * PEs that failed alike: their ranks (ascending) and the lowest one's exception, which
         * every one of them threw as far as its {@code toString} says.
         */
        public record FailureGroup(List<Integer> pes, Throwable failure) {
            /** {@code PE 3: failure}, or {@code PEs 0-2, 4-255 (255): failure}. */
            @Override
            public String toString() {
                return PeRanges.of(pes) + ": " + failure;
            }
        }

        /**
         * The PEs' failures grouped by their text, in the order of each group's lowest rank: a
         * failure shared by many PEs (every PE's "job aborted" after the first one failed) is
         * one group naming them, not one line per PE.
         */
        public List<FailureGroup> failureGroups() {
            SortedMap<Integer, String> text = new TreeMap<>();
            failuresByPe.forEach((pe, t) -> text.put(pe, t.toString()));
            return PeRanges.group(text).values().stream().map(pes -> new FailureGroup(pes, failuresByPe.get(pes.getFirst()))).toList();
        }

        /**
         * Throws an {@link AssertionError} unless the job ended with status 0: it names the PEs of
         * each distinct failure ({@link #failureGroups}), ends with the time-out's report if the
         * job timed out, and carries that report and each group's exception.
         */
        public Result orThrow() {
            if (status != 0 || timedOut) {
                List<FailureGroup> groups = failureGroups();
                StringBuilder message = new StringBuilder("in-process job failed with status " + status
                        + (timedOut ? " (timed out)" : "") + ": " + failuresByPe.size() + (failuresByPe.size() == 1 ? " PE" : " PEs") + " failed");
                groups.forEach(g -> message.append("\n  ").append(g));
                if (timedOut) {
                    message.append("\n").append(failures.getFirst().getMessage());
                }
                AssertionError e = new AssertionError(message.toString());
                if (timedOut) {
                    e.addSuppressed(failures.getFirst());
                }
                groups.forEach(g -> e.addSuppressed(g.failure()));
                throw e;
            }
            return this;
        }
    }

    private InProcessJob() {
    }

    /**
     * Runs {@code program} on {@code npes} PEs with the given environment and a time bound. The
     * PEs are on one host unless the environment's {@code SHMEM4J_INPROCESS_HOSTS=H} splits them
     * into pseudo-hosts, as {@link #run(int, int, Map, Duration, Program)} does.
     */
    public static Result run(int npes, Map<String, String> environment, Duration timeout, Program program) {
        return run(new InProcessHub(npes, environment), npes, timeout, program);
    }

    /**
     * Runs {@code program} on {@code npes} PEs split into {@code hosts} pseudo-hosts (1 to
     * {@code npes}) as {@code oshrun --hosts} does: PE {@code r} is on host {@code r * hosts / npes}.
     * Teams SHARED, host and leaders, {@code shmem_ptr} and the collective policy follow the
     * pseudo-hosts; data still moves through the shared memory of this one machine.
     */
    public static Result run(int npes, int hosts, Map<String, String> environment, Duration timeout, Program program) {
        return run(new InProcessHub(npes, hosts, environment), npes, timeout, program);
    }

    private static Result run(InProcessHub hub, int npes, Duration timeout, Program program) {
        Throwable[] failure = new Throwable[npes];
        Thread[] threads = new Thread[npes];
        // The PEs map each heap file once between them, not once each (the process's map count).
        RegionMappings regionMappings = new RegionMappings();
        for (int pe = 0; pe < npes; pe++) {
            int rank = pe;
            PeSlot slot = new PeSlot(() -> hub.bootstrap(rank), regionMappings);
            threads[pe] = Thread.ofPlatform().name("pe-" + rank).unstarted(() -> {
                try {
                    ScopedValue.where(Runtimes.IN_PROCESS_PE, slot).call(() -> {
                        program.run();
                        return null;
                    });
                    Runtimes.endOfProgram(slot);
                    if (Runtimes.initializedIn(slot)) {
                        // not naming the PE: the job's report does, and PEs failing alike are reported once
                        throw new IllegalStateException("returned without calling shmem_finalize (close);"
                                + " initialize with try (Shmem shmem = Shmem.init()) { ... } to finalize on every way out");
                    }
                } catch (ShmemGlobalExit e) {
                    // the status travels through the hub
                } catch (Throwable t) {
                    failure[rank] = t;
                    hub.abort("PE " + rank + " failed: " + t);
                } finally {
                    Runtimes.abandon(slot);
                }
            });
        }
        Arrays.stream(threads).forEach(Thread::start);
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean timedOut = false;
        for (Thread t : threads) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !t.join(Duration.ofNanos(Math.max(left, 1)))) {
                    timedOut = true;
                    break;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                timedOut = true;
                break;
            }
        }
        List<Throwable> failures = new ArrayList<>();
        if (timedOut) {
            StringBuilder stuck = new StringBuilder("in-process job of " + npes + " PEs timed out after " + timeout);
            // PEs stuck at the same place are written once: a thousand PEs in one barrier are one stack
            SortedMap<Integer, String> stacks = new TreeMap<>();
            for (int pe = 0; pe < npes; pe++) {
                if (threads[pe].isAlive()) {
                    StringBuilder stack = new StringBuilder();
                    for (StackTraceElement frame : threads[pe].getStackTrace()) {
                        stack.append("\n    at ").append(frame);
                    }
                    stacks.put(pe, stack.toString());
                }
            }
            PeRanges.group(stacks).forEach((stack, pes) -> stuck.append("\n  ").append(PeRanges.of(pes))
                    .append(" still running at:").append(stack));
            hub.abort("the job timed out");
            Arrays.stream(threads).forEach(Thread::interrupt);
            failures.add(new AssertionError(stuck.toString()));
            for (Thread t : threads) {
                try {
                    t.join(Duration.ofSeconds(5));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        SortedMap<Integer, Throwable> byPe = new TreeMap<>();
        for (int pe = 0; pe < npes; pe++) {
            if (failure[pe] != null) {
                failures.add(failure[pe]);
                byPe.put(pe, failure[pe]);
            }
        }
        Integer exit = hub.exitStatus();
        int status = exit != null ? exit : failures.isEmpty() ? 0 : 1;
        return new Result(status, List.copyOf(failures), timedOut, Collections.unmodifiableSortedMap(byPe));
    }

    /** {@link #run} with the process environment and a 60 s bound, throwing unless every PE succeeded. */
    public static void runOrThrow(int npes, Program program) {
        run(npes, System.getenv(), Duration.ofSeconds(60), program).orThrow();
    }
}
