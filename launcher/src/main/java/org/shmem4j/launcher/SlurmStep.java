package org.shmem4j.launcher;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.shmem4j.bootstrap.launcher.LaunchEnv;

/**
 * Inside a Slurm allocation: every PE of the job is a task of one {@code srun} step, placed by
 * Slurm, with its rank from {@code SLURM_PROCID}. The srun process stands for all PEs: its exit
 * is every PE's, and terminating it ends the step (srun passes SIGTERM to the tasks).
 */
final class SlurmStep {
    /** srun's own command, replaceable for tests and odd installations. */
    static final String SRUN_ENV = "OSHRUN_SRUN";
    /** Bound of the clean-up step after the job. */
    private static final long CLEANUP_TIMEOUT_S = 15;

    private SlurmStep() {}

    /** True when oshrun runs inside an allocation (and no other placement was asked for). */
    static boolean inAllocation() {
        String id = System.getenv("SLURM_JOB_ID");
        return id != null && !id.isBlank();
    }

    /**
     * Starts {@code pes} tasks running {@code command} with {@code env} (rank excluded) and the
     * secret in the step's environment, which Slurm carries to the tasks (no command line shows it);
     * srun gives up if the step's resources are not free within {@code startTimeoutS}.
     */
    static Process start(int pes, List<String> command, Map<String, String> env, String secret, boolean label, long startTimeoutS)
            throws IOException, LaunchOptions.UsageException {
        var cmd = new ArrayList<>(srun());
        // --input=all: oshrun's pipe to srun is every task's stdin, and its end (oshrun gone, even
        // by SIGKILL, which leaves srun running) ends them as it ends PEs started over ssh
        // --quiet: srun's informational lines ("job N queued and waiting for resources" while an
        // earlier step winds down) would be mixed into the PEs' stderr; its errors still show
        cmd.addAll(List.of("--ntasks=" + pes, "--kill-on-bad-exit=1", "--mpi=none", "--export=ALL", "--input=all", "--quiet"));
        // a step waits for the allocation's resources (another step may hold them): not forever
        cmd.add("--immediate=" + startTimeoutS);
        if (label) {
            cmd.add("--label");
        }
        // The rank is the task's: set in the task itself, which then becomes the JVM (so its parent,
        // the step daemon, stays the process whose end ends the PE).
        cmd.addAll(List.of("sh", "-c", "export " + LaunchEnv.RANK + "=$SLURM_PROCID && exec \"$@\"", "sh"));
        cmd.addAll(command);
        var pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        pb.environment().put(LaunchEnv.JOB_SECRET, secret);
        pb.environment().put(LaunchEnv.LAUNCHER_STDIN, "1");
        return pb.start(); // its stdin stays open for the job's life
    }

    /**
     * Deletes the job's files named {@code prefix*} in {@code shmDir} on every node of the
     * allocation (a PE that died during start-up can leave its heap file): one more step, one task
     * per node, sharing the resources of any step still ending, bounded in time.
     */
    static void cleanShm(String prefix, Path shmDir, PrintStream log) {
        var cmd = new ArrayList<String>();
        try {
            cmd.addAll(srun());
        } catch (LaunchOptions.UsageException e) {
            return; // reported when the job started
        }
        cmd.addAll(List.of("--overlap", "--ntasks-per-node=1", "--nodes=" + System.getenv().getOrDefault("SLURM_JOB_NUM_NODES", "1"),
                "--mpi=none", "--quiet", "sh", "-c", "rm -f -- \"$1\"/\"$2\"*", "sh", shmDir.toString(), prefix));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(CLEANUP_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                log.println("oshrun: cleaning " + shmDir + " on the allocation's nodes took longer than " + CLEANUP_TIMEOUT_S
                        + " s; gave up");
            }
        } catch (IOException e) {
            log.println("oshrun: cannot clean " + shmDir + " on the allocation's nodes: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> srun() throws LaunchOptions.UsageException {
        String srun = System.getenv(SRUN_ENV);
        return srun == null || srun.isBlank() ? List.of("srun") : ShellWords.split(srun);
    }

    /**
     * The first host of a Slurm node list ({@code SLURM_JOB_NODELIST}), whose compressed form
     * ({@code n[01-04,07],m3}) names it as the prefix and the first number of the first range.
     */
    static String firstNode(String nodeList) {
        String first = nodeList.strip();
        int bracket = first.indexOf('[');
        int comma = first.indexOf(',');
        if (comma >= 0 && (bracket < 0 || comma < bracket)) {
            return first.substring(0, comma);
        }
        if (bracket < 0) {
            return first;
        }
        String range = first.substring(bracket + 1);
        int end = 0;
        while (end < range.length() && Character.isDigit(range.charAt(end))) {
            end++;
        }
        return first.substring(0, bracket) + range.substring(0, end);
    }
}
