package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A one-node Slurm of its own on this machine, for direct {@code srun --mpi=pmix} jobs: munged,
 * slurmctld and slurmd in the foreground as children of the test JVM, everything (configuration,
 * state, spool, logs, munge socket) in one directory and reached through {@code SLURM_CONF}, on
 * free ports, so that it collides neither with a system Slurm nor with other test beds. Needs root
 * and Debian's {@code slurm-wlm} (which brings munge and the PMIx plugin).
 */
final class PrivateSlurm implements AutoCloseable {
    static final String NODE = "px0";
    private static final Duration READY_BOUND = Duration.ofSeconds(30);

    private final Path dir;
    private final List<Process> daemons = new ArrayList<>();

    private PrivateSlurm(Path dir) {
        this.dir = dir;
    }

    /** Why this machine cannot run it, or null. */
    static String missing() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "a private Slurm needs root (slurmd), this is " + System.getProperty("user.name");
        }
        for (String tool : List.of("munged", "slurmctld", "slurmd", "srun", "sinfo")) {
            if (PmixJobs.onPath(tool).isEmpty() && !Files.isExecutable(Path.of("/usr/sbin", tool))) {
                return tool + " is not installed (apt-get install slurm-wlm)";
            }
        }
        return null;
    }

    /** Starts the daemons in {@code dir} and waits (bounded) until the node is idle. */
    static PrivateSlurm start(Path dir) throws IOException, InterruptedException {
        var slurm = new PrivateSlurm(dir);
        try {
            slurm.configure();
            slurm.daemon("munged", "--foreground", "--force", "--socket=" + dir.resolve("munge.sock"),
                    "--pid-file=" + dir.resolve("munged.pid"), "--log-file=" + dir.resolve("munged.log"),
                    "--seed-file=" + dir.resolve("munged.seed"));
            slurm.awaitFile(dir.resolve("munge.sock"));
            slurm.daemon("slurmctld", "-D", "-i");
            slurm.daemon("slurmd", "-D", "-N", NODE);
            slurm.awaitIdle();
            return slurm;
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            slurm.close();
            throw e;
        }
    }

    /** The environment that points Slurm's commands at this cluster. */
    Map<String, String> env() {
        return Map.of("SLURM_CONF", dir.resolve("slurm.conf").toString());
    }

    /** {@code srun --mpi=pmix -N 1 -n n}, its own wait for resources bounded too. */
    static List<String> srun(int n) {
        return List.of("srun", "--mpi=pmix", "-N", "1", "-n", Integer.toString(n), "--immediate=20", "--quiet");
    }

    private void configure() throws IOException {
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip(); // slurmctld must run on SlurmctldHost
        // A fresh state directory numbers jobs from FirstJobId: start high and varied, so that the
        // PMIx plugin's per-step directories in the shared /tmp of an earlier run do not collide.
        long firstJob = 1_000_000 + ProcessHandle.current().pid() * 100 % 50_000_000;
        for (String d : List.of("state", "spool")) {
            Files.createDirectories(dir.resolve(d));
        }
        Files.writeString(dir.resolve("slurm.conf"), String.join("\n",
                "ClusterName=px",
                "SlurmctldHost=" + host + "(127.0.0.1)",
                "SlurmUser=root",
                "SlurmdUser=root",
                "AuthType=auth/munge",
                "CredType=cred/munge",
                "AuthInfo=socket=" + dir.resolve("munge.sock"),
                "SlurmctldPort=" + freePort(),
                "SlurmdPort=" + freePort(),
                "StateSaveLocation=" + dir.resolve("state"),
                "SlurmdSpoolDir=" + dir.resolve("spool"),
                "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
                "SlurmdPidFile=" + dir.resolve("slurmd.pid"),
                "SlurmctldLogFile=" + dir.resolve("slurmctld.log"),
                "SlurmdLogFile=" + dir.resolve("slurmd.log"),
                "FirstJobId=" + firstJob,
                "ProctrackType=proctrack/pgid",
                "TaskPlugin=task/none",
                "JobAcctGatherType=jobacct_gather/none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core",
                "ReturnToService=2",
                "SlurmdParameters=config_overrides", // declares more CPUs than the machine has
                "MpiDefault=none",
                "InactiveLimit=0",
                "KillWait=5",
                "NodeName=" + NODE + " NodeAddr=127.0.0.1 CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=8 ThreadsPerCore=1"
                        + " RealMemory=1000 State=UNKNOWN",
                "PartitionName=px Nodes=" + NODE + " Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES",
                ""));
    }

    private static int freePort() throws IOException {
        try (var s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private void daemon(String name, String... args) throws IOException {
        var cmd = new ArrayList<>(List.of(PmixJobs.onPath(name).orElse(Path.of("/usr/sbin", name)).toString()));
        cmd.addAll(List.of(args));
        var pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".out").toFile());
        pb.environment().putAll(env());
        daemons.add(pb.start());
    }

    private void awaitFile(Path file) throws InterruptedException, IOException {
        await(() -> Files.exists(file), "munged did not create " + file);
    }

    private void awaitIdle() throws InterruptedException, IOException {
        await(() -> {
            var pb = new ProcessBuilder("sinfo", "-h", "-N", "-o", "%t").redirectErrorStream(true);
            pb.environment().putAll(env());
            Process p = pb.start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return new String(p.getInputStream().readAllBytes()).strip().equals("idle");
        }, "node " + NODE + " did not become idle");
    }

    private interface Condition {
        boolean holds() throws IOException, InterruptedException;
    }

    /** Polls {@code c} until it holds; fails with {@code what} and the daemons' logs after {@link #READY_BOUND}. */
    private void await(Condition c, String what) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + READY_BOUND.toNanos();
        while (!c.holds()) {
            if (System.nanoTime() - deadline > 0 || daemons.stream().anyMatch(p -> !p.isAlive())) {
                fail("private Slurm in " + dir + ": " + what + " within " + READY_BOUND + "\n" + logs());
            }
            Thread.sleep(100);
        }
    }

    private String logs() throws IOException {
        var text = new StringBuilder();
        for (String log : List.of("munged.out", "slurmctld.out", "slurmd.out", "slurmctld.log", "slurmd.log")) {
            Path f = dir.resolve(log);
            if (Files.exists(f)) {
                text.append("--- ").append(log).append('\n').append(Files.readString(f));
            }
        }
        return text.toString();
    }

    /** Stops the daemons (SIGTERM, then SIGKILL after a grace), slurmd first. */
    @Override
    public void close() throws InterruptedException {
        for (Process p : daemons.reversed()) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        }
    }
}
