package org.shmem4j.launcher;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command and extra variables of every PE of a job: one {@link PeJvmSettings} choice per
 * machine, from the PEs the job places there and its cores. This machine's cores are known here;
 * another host counts its own (over ssh). Under Slurm, which places the PEs itself, every node is
 * taken to run the job's PEs spread evenly over the allocation's nodes, rounded up.
 */
final class PeCommands {
    /** A machine of the job: its name for messages, its PEs and cores (0: it counts them itself). */
    private record Machine(String name, int pes, int cores) {}

    private record Start(List<String> command, PeJvmSettings.Choice choice) {}

    private final String[] machineOf;
    private final Map<String, Start> starts = new LinkedHashMap<>();

    PeCommands(LaunchOptions opts, PeStarter starter, boolean underSlurm) {
        this(opts, starter, underSlurm, Runtime.getRuntime().availableProcessors(), slurmNodes());
    }

    /** With this machine's {@code cores} and the Slurm allocation's {@code slurmNodes} given (tests). */
    PeCommands(LaunchOptions opts, PeStarter starter, boolean underSlurm, int cores, int slurmNodes) {
        int n = opts.pes();
        machineOf = new String[n];
        var count = new LinkedHashMap<String, Integer>();
        for (int rank = 0; rank < n; rank++) {
            // PEs on pseudo-hosts or pseudo-nodes of this machine still share its cores
            machineOf[rank] = underSlurm ? "every node of the srun step"
                    : starter.hostId(rank) != null ? "this machine" : "host " + starter.host(rank);
            count.merge(machineOf[rank], 1, Integer::sum);
        }
        var aot = aotCache(opts);
        count.forEach((name, pes) -> {
            var m = underSlurm ? new Machine(name, (n + slurmNodes - 1) / slurmNodes, 0)
                    : new Machine(name, pes, name.equals("this machine") ? cores : 0);
            var choice = opts.jvmDefaults() ? PeJvmSettings.choose(m.pes(), m.cores(), opts.jvmOptions(), aot)
                    : PeJvmSettings.Choice.NONE;
            starts.put(name, new Start(PeJvmSettings.onNode(choice, m.pes(), Oshrun.peCommand(opts, choice.options())), choice));
        });
    }

    /** The library's AOT cache for these PEs: made on the class path, so never for a module-path program. */
    static PeJvmSettings.Aot aotCache(LaunchOptions opts) {
        return opts.mainModule() != null || !opts.modulePath().isEmpty()
                ? new PeJvmSettings.Aot(null, "none (the program runs with a module path; the cache was made on the class path)")
                : PeJvmSettings.aotCache(Oshrun.launcherPath(), Path.of(Oshrun.corePath()), opts.jvmOptions());
    }

    /** The command that starts the PE of {@code rank} (on its host). */
    List<String> command(int rank) {
        return starts.get(machineOf[rank]).command();
    }

    /** Variables the PE of {@code rank} needs besides the job's. */
    Map<String, String> env(int rank) {
        return starts.get(machineOf[rank]).choice().env();
    }

    /** Prints the choice for every machine ({@code SHMEM_INFO}). */
    void explain(PrintStream log) {
        starts.forEach((name, start) -> log.println("oshrun: PE JVM settings on " + name + ": " + start.choice().explained()));
        log.flush();
    }

    /** The nodes of the Slurm allocation oshrun runs in ({@code SLURM_JOB_NUM_NODES}), at least 1. */
    private static int slurmNodes() {
        try {
            return Math.max(1, Integer.parseInt(System.getenv().getOrDefault("SLURM_JOB_NUM_NODES", "1").strip()));
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
