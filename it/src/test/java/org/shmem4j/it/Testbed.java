package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Pseudo-hosts for the multi-host tests, made by the project's {@code it/testbed/pseudohosts.sh}
 * under a prefix of their own (other testbeds may exist on the machine at the same time). Closing
 * tears everything down, whatever state a failed test left.
 *
 * <p>They need root and Linux namespaces. Where those are missing the tests are skipped with a
 * message saying so, unless {@code SHMEM4J_REQUIRE_HOSTS=1} (CI), which makes them fail instead.
 */
final class Testbed implements AutoCloseable {
    static final Path SCRIPT = Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "testbed",
            "pseudohosts.sh").toAbsolutePath();
    /** Bound of every testbed command (up, slurm, down). */
    private static final long COMMAND_TIMEOUT_S = 90;
    private static final String[] TOOLS = {"/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/nsenter", "/usr/bin/unshare"};
    private static final String[] SLURM_TOOLS = {"/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/salloc"};

    final String prefix;
    final List<String> hosts;

    private Testbed(String prefix, int k) {
        this.prefix = prefix;
        var h = new ArrayList<String>();
        for (int i = 0; i < k; i++) {
            h.add(prefix + "-h" + i);
        }
        this.hosts = List.copyOf(h);
    }

    /**
     * Makes {@code k} pseudo-hosts with sshd (and the two-node Slurm if {@code slurm}), or skips
     * (fails under {@code SHMEM4J_REQUIRE_HOSTS=1}) the calling test where the machine cannot.
     */
    static Testbed up(int k, boolean slurm) {
        requireCapable(slurm);
        var random = new SecureRandom();
        String prefix = "it" + Integer.toString(random.nextInt(1 << 30), 36);
        var tb = new Testbed(prefix, k);
        try {
            tb.script("up", Integer.toString(k));
            if (slurm) {
                tb.script("slurm");
            }
            return tb;
        } catch (RuntimeException | Error e) {
            tb.close();
            throw e;
        }
    }

    private static void requireCapable(boolean slurm) {
        var missing = new ArrayList<String>();
        if (!isRoot()) {
            missing.add("root");
        }
        for (String t : slurm ? Stream.concat(Stream.of(TOOLS), Stream.of(SLURM_TOOLS)).toArray(String[]::new) : TOOLS) {
            if (!Files.isExecutable(Path.of(t))) {
                missing.add(t);
            }
        }
        Jobs.require("SHMEM4J_REQUIRE_HOSTS", "MULTI-HOST TESTS (pseudo-hosts need root, Linux namespaces, openssh-server"
                + (slurm ? " and slurm-wlm" : "") + ")", missing.isEmpty() ? null : "missing here: " + missing);
    }

    private static boolean isRoot() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .anyMatch(l -> l.matches("Uid:\\s+0\\s+0\\s+0\\s+0"));
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code ssh -F <the testbed's client config>} as one string for {@code --ssh}. */
    String ssh() {
        return "ssh -F " + script("ssh-config").strip();
    }

    /** {@code command} run on {@code host} (in this directory), bounded by {@code seconds}. */
    List<String> on(String host, int seconds, List<String> command) {
        var cmd = new ArrayList<>(List.of(SCRIPT.toString(), "-p", prefix, "exec", host, "timeout", "-k", "5",
                Integer.toString(seconds)));
        cmd.addAll(command);
        return cmd;
    }

    /** {@code host:slots,...} for {@code --host}. */
    String hostList(int hostCount, int slots) {
        return String.join(",", hosts.subList(0, hostCount).stream().map(h -> h + ":" + slots).toList());
    }

    /** Kills {@code host} at once (its init and everything on it), leaving its network silent. */
    void crash(String host) {
        script("crash", host);
    }

    /** The {@code shmem4j-*} files in {@code host}'s own /dev/shm (read through its init's root). */
    List<String> shmFiles(String host) {
        Path dir = Path.of("/proc", script("pid", host).strip(), "root", "dev", "shm");
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("shmem4j-")).sorted().toList();
        } catch (IOException e) {
            return List.of(); // the host is gone, and its /dev/shm with it
        }
    }

    /** Runs the testbed script with {@code args}; returns its stdout, fails with its output otherwise. */
    String script(String... args) {
        var cmd = new ArrayList<>(List.of(SCRIPT.toString(), "-p", prefix));
        cmd.addAll(List.of(args));
        try (var job = Jobs.start("pseudohosts.sh " + String.join(" ", args), cmd, Map.of())) {
            var r = job.await(java.time.Duration.ofSeconds(COMMAND_TIMEOUT_S));
            if (r.exit() != 0) {
                fail("testbed command failed: " + r.describe());
            }
            return String.join("\n", r.stdout());
        }
    }

    @Override
    public void close() {
        try {
            var p = new ProcessBuilder(SCRIPT.toString(), "-p", prefix, "down").inheritIO().start();
            if (!p.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                System.err.println("[it] tearing down testbed " + prefix + " took longer than " + COMMAND_TIMEOUT_S + " s");
            }
        } catch (IOException e) {
            System.err.println("[it] cannot tear down testbed " + prefix + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
