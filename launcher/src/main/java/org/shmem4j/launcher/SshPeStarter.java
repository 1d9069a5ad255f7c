package org.shmem4j.launcher;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.shmem4j.bootstrap.launcher.LaunchEnv;

/**
 * Starts each PE on its host with one ssh connection ({@code ssh -o BatchMode=yes HOST 'exec java ...'});
 * PEs placed on this machine start as local children. The ssh client is the PE's local stand-in:
 * its exit status is the PE's (255 when the connection failed), its pipes carry the PE's output.
 * The connection's stdin is the PE's line to oshrun: its first line is the job secret (never in a
 * command line), and its end, whether oshrun died (even by SIGKILL: the kernel closes the pipe),
 * terminated the ssh client, or the connection dropped, ends the PE
 * ({@link LaunchEnv#LAUNCHER_STDIN}).
 */
final class SshPeStarter implements PeStarter {
    /** Bound of the clean-up connections after the job. */
    private static final long CLEANUP_TIMEOUT_S = 10;
    /**
     * Options added to every ssh: never prompt; and notice a host that vanished (no FIN, no RST)
     * within about five seconds instead of the kernel's TCP timeouts.
     */
    private static final List<String> SSH_OPTIONS = List.of("-o", "BatchMode=yes", "-o", "ServerAliveInterval=1",
            "-o", "ServerAliveCountMax=5");
    /**
     * Connect time-outs: a PE's start may meet a busy sshd; the clean-up meets hosts that answered
     * moments ago, or are gone (and must not hold the job's end for long).
     */
    private static final int START_CONNECT_TIMEOUT_S = 10, CLEANUP_CONNECT_TIMEOUT_S = 3;
    /** Variables of oshrun's environment that every remote PE gets too (a local PE inherits them all). */
    private static final List<String> FORWARDED_PREFIXES = List.of("SHMEM_", "UCX_");

    private final List<String> ssh;
    private final String[] hostOf;
    private final String localHost = LaunchEnv.kernelHostName();
    private final LocalPeStarter local = new LocalPeStarter();
    private final PrintStream log;
    /** For each rank: how many PEs its host gets from it on (itself included), in start order. */
    private final int[] leftOnHost;
    /** Writes the shell's capacity check of a remote PE's start (host, PEs left there); null: none. */
    private java.util.function.BiFunction<String, Integer, String> capacityGuard;

    SshPeStarter(List<String> ssh, String[] hostOf, PrintStream log) {
        this.ssh = List.copyOf(ssh);
        this.hostOf = hostOf.clone();
        this.log = log;
        this.leftOnHost = new int[hostOf.length];
        var seen = new java.util.HashMap<String, Integer>();
        for (int rank = hostOf.length - 1; rank >= 0; rank--) {
            leftOnHost[rank] = seen.merge(hostOf[rank], 1, Integer::sum);
        }
    }

    /**
     * Makes each remote PE's start refuse, on its host and before its JVM, when it and the PEs
     * still to start there cannot fit that host ({@link NodeCapacity#shellGuard}): oshrun cannot
     * read another host's memory, and asking first would cost every job a round trip per host.
     * The first PE of a host judges them all; each later one judges itself and those after it, so
     * a host that fills up part way stops the job too.
     */
    void guardCapacity(List<String> jvmOptions, long shmPerPe, Path shmDir) {
        capacityGuard = (host, pes) -> NodeCapacity.shellGuard(host, pes, jvmOptions, shmPerPe, shmDir);
    }

    /** True when {@code host} names this machine: its PEs start without ssh. */
    boolean isLocal(String host) {
        return host.equals(localHost) || host.equals("localhost");
    }

    /** The hosts other than this machine, in placement order. */
    List<String> remoteHosts() {
        var out = new LinkedHashSet<String>();
        for (String h : hostOf) {
            if (!isLocal(h)) {
                out.add(h);
            }
        }
        return List.copyOf(out);
    }

    @Override
    public Process start(PeLaunch launch) throws IOException {
        String host = hostOf[launch.rank()];
        if (isLocal(host)) {
            return local.start(launch);
        }
        var remote = new ArrayList<String>(List.of(LaunchEnv.LAUNCHER_STDIN + "=1"));
        for (var e : System.getenv().entrySet()) {
            if (FORWARDED_PREFIXES.stream().anyMatch(e.getKey()::startsWith)) {
                remote.add(e.getKey() + "=" + e.getValue());
            }
        }
        launch.env().forEach((k, v) -> remote.add(k + "=" + v));
        remote.addAll(launch.command());
        // Run by the remote login shell: `read` takes the secret's line only, and the JVM the shell
        // becomes inherits the rest of stdin.
        String line = (capacityGuard == null ? "" : capacityGuard.apply(host, leftOnHost[launch.rank()]))
                + "cd " + ShellWords.quote(Path.of("").toAbsolutePath().toString())
                + " && IFS= read -r " + LaunchEnv.JOB_SECRET + " && export " + LaunchEnv.JOB_SECRET
                + " && exec env " + ShellWords.join(remote);
        Process p = new ProcessBuilder(sshCommand(host, START_CONNECT_TIMEOUT_S, line)).start();
        try {
            var stdin = p.getOutputStream(); // stays open for the job's life: see the class comment
            stdin.write((launch.secret() + "\n").getBytes(StandardCharsets.US_ASCII));
            stdin.flush();
        } catch (IOException e) {
            // ssh already failed; its exit status and stderr tell why
        }
        return p;
    }

    /** ssh, its options, the host and the command line the remote login shell runs. */
    private List<String> sshCommand(String host, int connectTimeoutS, String remoteLine) {
        var cmd = new ArrayList<>(ssh);
        cmd.addAll(SSH_OPTIONS);
        cmd.addAll(List.of("-o", "ConnectTimeout=" + connectTimeoutS));
        cmd.add(host);
        cmd.add(remoteLine);
        return cmd;
    }

    @Override
    public String hostId(int rank) {
        return isLocal(hostOf[rank]) ? localHost : null; // the name a PE on this machine would report
    }

    @Override
    public String host(int rank) {
        return hostOf[rank];
    }

    @Override
    public void cleanShmElsewhere(String prefix, Path shmDir, java.util.Set<String> gone) {
        var cleaners = new ArrayList<Map.Entry<String, Process>>();
        for (String host : remoteHosts()) {
            if (gone.contains(host)) {
                continue;
            }
            var cmd = sshCommand(host, CLEANUP_CONNECT_TIMEOUT_S, "rm -f -- " + ShellWords.quote(shmDir.toString()) + "/" + ShellWords.quote(prefix) + "*");
            try {
                cleaners.add(Map.entry(host, new ProcessBuilder(cmd).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectInput(ProcessBuilder.Redirect.from(
                                new File("/dev/null"))).start()));
            } catch (IOException e) {
                log.println("oshrun: cannot clean " + shmDir + " on " + host + ": " + e.getMessage());
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLEANUP_TIMEOUT_S);
        for (var c : cleaners) {
            try {
                if (!c.getValue().waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    c.getValue().destroyForcibly();
                    log.println("oshrun: cleaning " + shmDir + " on " + c.getKey() + " took longer than "
                            + CLEANUP_TIMEOUT_S + " s; gave up");
                } else if (c.getValue().exitValue() == 255) {
                    log.println("oshrun: cannot reach " + c.getKey() + " to clean " + shmDir);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
