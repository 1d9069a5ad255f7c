package org.shmem4j.launcher;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.bootstrap.PseudoHosts;
import org.shmem4j.bootstrap.launcher.LaunchEnv;
import org.shmem4j.core.info.BuildInfo;
import org.shmem4j.core.info.InfoReport;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;
import org.shmem4j.pe.PeMain;

/**
 * {@code oshrun}: starts the PEs of one OpenSHMEM job as JVMs, serves their rendezvous, forwards
 * their output, and makes sure the job ends, with a meaningful status, in bounded time whatever
 * its PEs do. See {@link LaunchOptions#USAGE} for the command line.
 *
 * <p>Exit status: 0 when every PE finalized (or never used SHMEM) and exited with 0; the status of
 * the first PE that failed (128+signal for a signal); the status given to
 * {@code shmem_global_exit}; 124 when {@code --timeout} expired; 2 for usage errors; 130/143 when
 * oshrun itself gets SIGINT/SIGTERM.
 */
public final class Oshrun {
    /** Exit status for a command line that cannot be run. */
    public static final int USAGE_ERROR = 2;
    /** Exit status for a job refused before it started: a bad {@code SHMEM_*} setting, or PEs this machine cannot fit. */
    public static final int CONFIGURATION_ERROR = 1;
    /** Exit status when {@code --timeout} expires (as timeout(1)). */
    public static final int TIMED_OUT = 124;
    /** Default of {@code SHMEM_BOOTSTRAP_TIMEOUT_S}. */
    public static final long DEFAULT_BOOTSTRAP_TIMEOUT_S = 60;

    private static final String EXIT_WAIT_FLAG = "-XX:UserThreadWaitAttemptsAtExit=";
    private static final String ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    /** After the job ended: how long PEs get to disappear, and their output to drain. */
    private static final long EXIT_WAIT_MS = org.shmem4j.bootstrap.launcher.LauncherBootstrap.ABORT_GRACE_MS + Job.GRACE_TO_TERM_MS + Job.TERM_TO_KILL_MS + 500,
            DRAIN_WAIT_MS = 500;

    private Oshrun() {}

    public static void main(String[] args) {
        System.exit(run(List.of(args)));
    }

    /** Runs one job and returns oshrun's exit status. */
    static int run(List<String> args) {
        PrintStream log = System.err;
        LaunchOptions opts;
        try {
            opts = LaunchOptions.parse(args);
        } catch (LaunchOptions.HelpRequested h) {
            return answer(h.topic());
        } catch (LaunchOptions.UsageException e) {
            log.println("oshrun: " + e.getMessage());
            log.println("Try 'oshrun --help' for more information.");
            return USAGE_ERROR;
        }
        var remote = opts.remote();
        boolean overSsh = !remote.hosts().isEmpty();
        boolean underSlurm = !overSsh && opts.hosts() == 0 && opts.nodes() == 0 && SlurmStep.inAllocation();
        PeStarter starter;
        if (overSsh) {
            int slots = Hosts.totalSlots(remote.hosts());
            if (opts.pes() > slots && !opts.oversubscribe()) {
                log.println("oshrun: warning: " + opts.pes() + " PEs on " + slots + " slots: the hosts are oversubscribed"
                        + " (PEs then yield the core while they wait); add --oversubscribe if that is intended");
            }
            List<String> ssh;
            try {
                ssh = sshCommand(remote);
            } catch (LaunchOptions.UsageException e) {
                log.println("oshrun: " + e.getMessage());
                return USAGE_ERROR;
            }
            starter = new SshPeStarter(ssh, Hosts.place(remote.hosts(), opts.pes(), remote.byNode()), log);
        } else {
            starter = new LocalPeStarter();
            int cores = Runtime.getRuntime().availableProcessors();
            if (!underSlurm && opts.pes() > cores && !opts.oversubscribe()) {
                log.println("oshrun: warning: " + opts.pes() + " PEs on " + cores + " cores: the machine is oversubscribed"
                        + " (PEs then yield the core while they wait); add --oversubscribe if that is intended");
            }
        }
        InetAddress rendezvousAddress;
        try {
            rendezvousAddress = rendezvousAddress(remote, starter instanceof SshPeStarter ssh ? ssh.remoteHosts()
                    : underSlurm ? List.of(SlurmStep.firstNode(System.getenv().getOrDefault("SLURM_JOB_NODELIST", ""))) : List.of());
        } catch (LaunchOptions.UsageException e) {
            log.println("oshrun: " + e.getMessage());
            return USAGE_ERROR;
        }
        long bootstrapTimeout;
        try {
            bootstrapTimeout = bootstrapTimeoutSeconds();
        } catch (IllegalArgumentException e) {
            log.println("oshrun: " + e.getMessage());
            return USAGE_ERROR;
        }
        // The PEs inherit this environment: a bad SHMEM_* setting is said once here, not by every PE.
        Parameters params;
        try {
            params = Parameters.from(System.getenv());
        } catch (org.shmem4j.ShmemException e) {
            log.println("oshrun: " + e.getMessage().replace("\n", "; "));
            return CONFIGURATION_ERROR;
        }
        if (!underSlurm) { // under Slurm the PEs run on the allocation's nodes, which oshrun cannot see
            int here = 0;
            for (int rank = 0; rank < opts.pes(); rank++) {
                here += starter.hostId(rank) != null ? 1 : 0;
            }
            long shmPerPe = params.get(Params.SYMMETRIC_SIZE) + params.get(Params.RESERVED_SIZE);
            String refusal = here == 0 ? null : NodeCapacity.refusal(here, opts.jvmOptions(), shmPerPe, params.get(Params.SHM_DIR));
            if (refusal != null) {
                log.println(refusal + (here < opts.pes() ? " (of the job's " + opts.pes() + " PEs, those on this machine)" : ""));
                return CONFIGURATION_ERROR;
            }
            if (starter instanceof SshPeStarter overSshStarter) {
                overSshStarter.guardCapacity(opts.jvmOptions(), shmPerPe, params.get(Params.SHM_DIR));
            }
        }

        var random = new SecureRandom();
        byte[] secretBytes = new byte[16]; // 128 bits
        random.nextBytes(secretBytes);
        String secret = HexFormat.of().formatHex(secretBytes);
        var id = new StringBuilder(12);
        for (int i = 0; i < 12; i++) {
            id.append(ID_CHARS.charAt(random.nextInt(ID_CHARS.length())));
        }
        String jobId = id.toString();
        String shmDirEnv = System.getenv(LaunchEnv.SHM_DIR);
        Path shmDir = Path.of(shmDirEnv == null || shmDirEnv.isBlank() ? LaunchEnv.DEFAULT_SHM_DIR : shmDirEnv);

        var timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(null, r, "oshrun-timer", 256 << 10);
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        var job = new Job(opts.pes(), jobId, shmDir, log, timer, underSlurm);
        var stopped = new StoppedPeWatch(job, log, opts.stoppedTimeout());
        var heartbeat = opts.heartbeat() == null ? null : new Heartbeat(job, log, opts.heartbeat(), opts.stoppedTimeout());
        // The job's files on the other hosts, once (the shutdown hook runs after a normal end too).
        var cleanedElsewhere = new java.util.concurrent.atomic.AtomicBoolean();
        String shmPrefix = LaunchEnv.shmFilePrefix(jobId);
        Runnable cleanShmElsewhere = () -> {
            if (!cleanedElsewhere.getAndSet(true)) {
                var gone = job.lostHosts();
                if (underSlurm && gone.isEmpty()) {
                    SlurmStep.cleanShm(shmPrefix, shmDir, log);
                } else if (underSlurm) { // a step over a lost node would only wait for its time-out
                    log.println("oshrun: " + shmDir + " on the allocation's nodes is not cleaned: " + gone + " gone");
                } else {
                    starter.cleanShmElsewhere(shmPrefix, shmDir, gone);
                }
            }
        };

        // Whatever ends the launcher (signal, System.exit, an unexpected error), no PE and no
        // shared-memory file of the job may outlive it.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!job.outcome().isDone()) {
                job.end(1, "oshrun: interrupted; ending the job", -1);
                waitForExits(job, Job.TERM_TO_KILL_MS);
            }
            job.killAllNow();
            job.cleanShm();
            cleanShmElsewhere.run();
            System.out.flush();
            System.err.flush();
        }, "oshrun-shutdown"));

        try (var rendezvous = new Rendezvous(secret, job, log, rendezvousAddress)) {
            rendezvous.start();
            var commands = new PeCommands(opts, starter, underSlurm);
            if (params.get(Params.INFO)) {
                commands.explain(log);
            }
            // Forwarded lines go through the launcher's own PrintStreams: each forwarded chunk of
            // whole lines is one write, atomic with respect to oshrun's own messages.
            PrintStream stdout = System.out, stderr = log;
            var forwarders = new ArrayList<Thread>(2 * opts.pes());
            var jobEnv = Map.of(LaunchEnv.RENDEZVOUS, rendezvous.address(), LaunchEnv.JOB_ID, jobId,
                    LaunchEnv.SIZE, Integer.toString(opts.pes()));
            if (underSlurm) {
                Process step;
                try {
                    var env = new HashMap<>(jobEnv);
                    env.putAll(commands.env(0));
                    step = SlurmStep.start(opts.pes(), commands.command(0), env, secret, opts.tagOutput(), bootstrapTimeout);
                } catch (IOException | LaunchOptions.UsageException e) {
                    log.println("oshrun: cannot run srun (" + SlurmStep.SRUN_ENV + "): " + e.getMessage());
                    return 1;
                }
                for (int rank = 0; rank < opts.pes(); rank++) {
                    job.started(rank, step, null);
                    if (heartbeat != null) {
                        heartbeat.watch(rank); // its host is the one it reports
                    }
                }
                // srun --label tags the lines itself (rank: line)
                forwarders.add(forward(step.getInputStream(), stdout, -1, "stdout", false, job::isEnding, null));
                forwarders.add(forward(step.getErrorStream(), stderr, -1, "stderr", false, job::isEnding, null));
            }
            for (int rank = 0; !underSlurm && rank < opts.pes() && !job.isEnding(); rank++) { // a PE that died early ends the starts
                var env = new HashMap<>(jobEnv);
                env.putAll(commands.env(rank));
                env.put(LaunchEnv.RANK, Integer.toString(rank));
                String host = hostId(opts, starter, rank);
                if (host != null) { // else the PE reports its own
                    env.put(LaunchEnv.HOST_ID, host);
                    env.put(LaunchEnv.NODE_ID, nodeId(opts, starter, rank));
                }
                Process p;
                try {
                    p = starter.start(new PeStarter.PeLaunch(rank, commands.command(rank), env, secret));
                } catch (IOException e) {
                    job.end(1, "oshrun: cannot start PE " + rank + " (" + commands.command(rank).getFirst() + "): "
                            + e.getMessage() + "; ending the job", -1);
                    break;
                }
                job.started(rank, p, starter.host(rank));
                if (host != null) { // on this machine: its state can be read
                    stopped.watch(rank, p.pid(), host);
                } else if (heartbeat != null) {
                    heartbeat.watch(rank);
                }
                forwarders.add(forward(p.getInputStream(), stdout, rank, "stdout", opts.tagOutput(), job::isEnding, null));
                forwarders.add(forward(p.getErrorStream(), stderr, rank, "stderr", opts.tagOutput(), job::isEnding, job::refusedByHost));
            }
            int started = underSlurm ? opts.pes() : forwarders.size() / 2;
            if (started < opts.pes()) {
                log.println("oshrun: PEs " + started + ".." + (opts.pes() - 1) + " were not started: the job had ended");
            }
            job.armBootstrapTimer(bootstrapTimeout);
            stopped.start(timer);
            if (heartbeat != null) {
                heartbeat.start(java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                        Thread.ofPlatform().daemon().name("oshrun-heartbeat").stackSize(256 << 10).factory()));
            }
            if (opts.timeout() != null) {
                long ms = opts.timeout().toMillis();
                timer.schedule(() -> job.end(TIMED_OUT, "oshrun: the job ran longer than --timeout " + LaunchOptions.seconds(opts.timeout())
                        + " s; ending it", -1), ms, TimeUnit.MILLISECONDS);
            }

            int status = job.outcome().join();
            if (params.get(Params.INFO)) {
                job.tally().report().forEach(log::println);
            }
            waitForExits(job, EXIT_WAIT_MS);
            job.killAllNow(); // anything that ignored SIGTERM and survived the grace
            long drainUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_WAIT_MS);
            for (Thread t : forwarders) {
                // Descendants of a PE may hold its pipes open; do not wait for them forever.
                long left = drainUntil - System.nanoTime();
                if (left > 0) {
                    t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            }
            job.cleanShm();
            cleanShmElsewhere.run();
            return status;
        } catch (IOException e) {
            log.println("oshrun: cannot open the rendezvous service: " + e.getMessage());
            job.cleanShm();
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** Prints the answer to {@code --help}, {@code --version} or {@code --info}; returns the exit status. */
    private static int answer(LaunchOptions.HelpRequested.Topic topic) {
        switch (topic) {
            case USAGE -> System.out.print(LaunchOptions.USAGE);
            case VERSION -> System.out.println(BuildInfo.current().describe());
            case INFO -> {
                InfoReport report = InfoReport.of(System.getenv());
                System.out.print(report.text());
                return report.valid() ? 0 : 1;
            }
        }
        return 0;
    }

    private static Thread forward(java.io.InputStream in, OutputStream sink, int rank, String kind, boolean tag,
            java.util.function.BooleanSupplier ending, java.util.function.Consumer<String> launcherLines) {
        return new OutputForwarder(in, sink, rank, kind, tag, ending, launcherLines).start("oshrun-" + kind + "-" + rank);
    }

    /**
     * The declared host of {@code rank}: its node, or with {@code --hosts H} the pseudo-host
     * {@code rank * H / N} ({@link PseudoHosts#hostOf}) on the starter's machine.
     */
    static String hostId(LaunchOptions opts, PeStarter starter, int rank) {
        return opts.hosts() == 0 || starter.hostId(rank) == null ? nodeId(opts, starter, rank)
                : PseudoHosts.hostId(starter.hostId(rank), PseudoHosts.hostOf(rank, opts.pes(), opts.hosts()));
    }

    /**
     * The node of {@code rank}: the starter's machine, or with {@code --nodes K} the pseudo-node
     * {@code rank * K / N} of it, which shares memory with no other pseudo-node.
     */
    static String nodeId(LaunchOptions opts, PeStarter starter, int rank) {
        String machine = starter.hostId(rank);
        return opts.nodes() == 0 || machine == null ? machine : PseudoHosts.nodeId(machine, PseudoHosts.hostOf(rank, opts.pes(), opts.nodes()));
    }

    /** The ssh command: {@code --ssh}, else {@code OSHRUN_SSH}, else {@code ssh}. */
    static List<String> sshCommand(LaunchOptions.Remote remote) throws LaunchOptions.UsageException {
        if (remote.ssh() != null) {
            return remote.ssh();
        }
        String env = System.getenv("OSHRUN_SSH");
        if (env == null || env.isBlank()) {
            return List.of("ssh");
        }
        try {
            return ShellWords.split(env);
        } catch (LaunchOptions.UsageException e) {
            throw new LaunchOptions.UsageException("OSHRUN_SSH: " + e.getMessage());
        }
    }

    /**
     * Where the rendezvous listens: {@code --rendezvous-address}; else, with PEs on other hosts,
     * this machine's address on the route to the first of {@code otherHosts} that has a route not
     * through loopback; else loopback (nothing outside this machine can connect).
     */
    static InetAddress rendezvousAddress(LaunchOptions.Remote remote, List<String> otherHosts)
            throws LaunchOptions.UsageException {
        if (remote.rendezvousAddress() != null) {
            try {
                return InetAddress.getByName(remote.rendezvousAddress());
            } catch (UnknownHostException e) {
                throw new LaunchOptions.UsageException("--rendezvous-address " + remote.rendezvousAddress()
                        + ": unknown host");
            }
        }
        var tried = new ArrayList<String>();
        for (String host : otherHosts) {
            try (var probe = new DatagramSocket()) {
                probe.connect(InetAddress.getByName(host), 9); // no packet is sent: this only picks the route
                InetAddress source = probe.getLocalAddress();
                if (!source.isLoopbackAddress() && !source.isAnyLocalAddress()) {
                    return source;
                }
                tried.add(host + " (through loopback)");
            } catch (IOException e) {
                tried.add(host + " (" + e.getMessage() + ")");
            }
        }
        if (!tried.isEmpty()) {
            throw new LaunchOptions.UsageException("cannot choose the rendezvous address from the routes to " + tried
                    + "; give --rendezvous-address ADDR");
        }
        return InetAddress.getLoopbackAddress();
    }

    /** Waits up to {@code ms} in total for every started PE process to end. */
    private static void waitForExits(Job job, long ms) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        for (Process p : job.processes()) {
            try {
                long left = deadline - System.nanoTime();
                p.onExit().get(Math.max(0, left), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The command of a PE: the launcher's own {@code java}, oshrun's JVM settings for its node
     * ({@code defaults}), the user's options, class path (or module path), PeMain and the program's main class.
     */
    static List<String> peCommand(LaunchOptions opts, List<String> defaults) {
        var cmd = new ArrayList<String>();
        cmd.add(javaExecutable());
        // A PE always has a thread blocked in a native socket read (the launcher connection), and
        // by default HotSpot waits up to 300 ms at exit for such threads; nothing needs that wait.
        // Left out when the user sets the flag.
        if (opts.jvmOptions().stream().noneMatch(o -> o.startsWith(EXIT_WAIT_FLAG))) {
            cmd.add(EXIT_WAIT_FLAG + "0");
        }
        // No hsperfdata file per PE: it costs start-up time and, when a pid is reused while an old
        // file is locked, the JVM prints a warning into the program's output.
        if (opts.jvmOptions().stream().noneMatch(o -> o.contains("UsePerfData"))) {
            cmd.add("-XX:-UsePerfData");
        }
        boolean onModulePath = opts.mainModule() != null;
        // The network engine calls native code (UCX through java.lang.foreign), which the JDK
        // otherwise warns about: granted to the library's module, named on the module path.
        if (opts.jvmOptions().stream().noneMatch(o -> o.startsWith("--enable-native-access"))) {
            cmd.add(onModulePath ? "--enable-native-access=" + CORE_MODULE : PeJvmSettings.NATIVE_ACCESS);
        }
        String core = corePath();
        cmd.addAll(defaults); // before the user's: where both set a flag, the JVM takes the user's
        cmd.addAll(opts.jvmOptions());
        // The core library comes first: the AOT cache is valid for class paths that start with the
        // one it was made with, and on the module path the first copy of a module wins.
        if (onModulePath) {
            cmd.add("--module-path");
            cmd.add(String.join(File.pathSeparator, withCoreFirst(core, opts.modulePath())));
            // The library does not require the program's module, so it is added; jdk.jfr too, for
            // --jfr and JFR events, as on the class path where every system module is resolved.
            cmd.add("--add-modules");
            cmd.add(opts.mainModule() + ",jdk.jfr");
            // PeMain reaches main as the java launcher does (also a non-public or instance main, JEP 512)
            String main = opts.mainClass();
            cmd.add("--add-opens");
            cmd.add(opts.mainModule() + "/" + main.substring(0, Math.max(0, main.lastIndexOf('.'))) + "=" + CORE_MODULE);
            cmd.add("-m");
            cmd.add(CORE_MODULE + "/" + PeMain.class.getName());
        } else {
            if (!opts.modulePath().isEmpty()) {
                cmd.add("--module-path");
                cmd.add(String.join(File.pathSeparator, opts.modulePath()));
            }
            cmd.add("-cp");
            cmd.add(String.join(File.pathSeparator, withCoreFirst(core, opts.classpath())));
            cmd.add(PeMain.class.getName()); // ties the PE to this launcher's life, then runs main
        }
        cmd.add(opts.mainClass());
        cmd.addAll(opts.programArgs());
        return cmd;
    }

    /** The module of the shmem4j library. */
    static final String CORE_MODULE = "org.shmem4j";

    /** {@code core}, then {@code path} without it. */
    private static List<String> withCoreFirst(String core, List<String> path) {
        var out = new ArrayList<String>();
        out.add(core);
        path.stream().filter(e -> !Path.of(e).toAbsolutePath().normalize().toString().equals(core)).forEach(out::add);
        return out;
    }

    /** The {@code java} that runs this launcher, so PEs get the same JDK. */
    static String javaExecutable() {
        Path p = Path.of(System.getProperty("java.home"), "bin", "java");
        if (Files.isExecutable(p)) {
            return p.toString();
        }
        return ProcessHandle.current().info().command().orElse("java");
    }

    /**
     * The jar (or classes directory) of the shmem4j core library, which every PE needs, as an
     * absolute path without {@code ..} (the AOT cache records the path it was made with).
     */
    static String corePath() {
        return location(Bootstrap.class, "the shmem4j core library").toString();
    }

    /** The jar (or classes directory) of this launcher, beside which the PEs' AOT cache lives. */
    static Path launcherPath() {
        return location(Oshrun.class, "the oshrun launcher");
    }

    private static Path location(Class<?> c, String what) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath().normalize();
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("oshrun: cannot locate " + what + ": " + e, e);
        }
    }

    /** {@code SHMEM_BOOTSTRAP_TIMEOUT_S}, default {@value #DEFAULT_BOOTSTRAP_TIMEOUT_S}. */
    static long bootstrapTimeoutSeconds() {
        String v = System.getenv(LaunchEnv.BOOTSTRAP_TIMEOUT_S);
        if (v == null || v.isBlank()) {
            return DEFAULT_BOOTSTRAP_TIMEOUT_S;
        }
        try {
            long s = Long.parseLong(v.strip());
            if (s > 0) {
                return s;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(LaunchEnv.BOOTSTRAP_TIMEOUT_S + "=" + v + " is not a positive number of seconds");
    }
}
