package org.shmem4j.launcher;

import java.io.IOException;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import org.shmem4j.pe.PeMain;

/**
 * The parsed {@code oshrun} command line.
 *
 * @param pes         number of PEs ({@code -n}/{@code -np})
 * @param tagOutput   prefix every forwarded line with {@code [1,rank]<stdout>: } ({@code --tag-output})
 * @param timeout     wall-clock bound of the whole job ({@code --timeout SECONDS}), or null
 * @param stoppedTimeout how long a PE may stay stopped (SIGSTOP, a debugger) before the job is ended
 *                    ({@code --stopped-timeout SECONDS}), or null: stopped PEs are only reported
 * @param heartbeat   silence after which a host beyond this machine is lost ({@code --heartbeat SECONDS},
 *                    default {@link Heartbeat#DEFAULT_TIMEOUT}), or null: no heartbeat ({@code --heartbeat 0})
 * @param jvmOptions  options for every PE JVM, in order
 * @param classpath   the user's class path entries (for {@code -jar}: the jar and its manifest Class-Path)
 * @param modulePath  the user's module path entries ({@code -p}/{@code --module-path}), maybe empty
 * @param mainModule  the module of the main class ({@code -m MODULE[/MainClass]}), or null for a
 *                    program on the class path
 * @param mainClass   the PE main class
 * @param programArgs arguments passed to every PE's main
 * @param hosts       number of pseudo-hosts the PEs are split into ({@code --hosts H}, 1 to
 *                    {@code pes}), or 0 when not given (every PE on its machine's host)
 * @param nodes       number of pseudo-nodes the PEs are split into ({@code --nodes K}, 1 to
 *                    {@code pes}), or 0 when not given (every PE on its machine's node)
 * @param oversubscribe more PEs than cores (or slots) are intended ({@code --oversubscribe}): no warning
 * @param jvmDefaults the PEs get oshrun's JVM settings ({@link PeJvmSettings}; {@code --jvm-defaults=auto}, the
 *                    default), or only the user's ({@code --jvm-defaults=none})
 * @param remote      where the PEs run when not on this machine only ({@code --hostfile}, {@code --host},
 *                    {@code --map-by}, {@code --ssh}, {@code --rendezvous-address})
 */
public record LaunchOptions(int pes, boolean tagOutput, Duration timeout, Duration stoppedTimeout, Duration heartbeat, List<String> jvmOptions,
        List<String> classpath, List<String> modulePath, String mainModule, String mainClass, List<String> programArgs, int hosts,
        int nodes, boolean oversubscribe, boolean jvmDefaults, Remote remote) {

    /**
     * The options of jobs beyond this machine.
     *
     * @param hosts             the hosts and slots of an ssh job, empty for none
     * @param byNode            {@code --map-by node}: ranks round-robin over the hosts (default: blocks by slot)
     * @param ssh               {@code --ssh CMD} split into words, or null (then {@code OSHRUN_SSH}, else {@code ssh})
     * @param rendezvousAddress {@code --rendezvous-address}, or null to choose one
     */
    public record Remote(List<Hosts.Slots> hosts, boolean byNode, List<String> ssh, String rendezvousAddress) {}

    /** A command line that cannot be run; {@code oshrun} prints it and exits with status 2. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }

    /**
     * Thrown by {@link #parse} for an option that asks a question instead of starting a job:
     * {@code -h}/{@code --help}, {@code --version} or {@code --info}.
     */
    public static final class HelpRequested extends Exception {
        private static final long serialVersionUID = 1L;

        /** What was asked. */
        public enum Topic { USAGE, VERSION, INFO }

        private final Topic topic;

        HelpRequested(Topic topic) {
            this.topic = topic;
        }

        /** What was asked. */
        public Topic topic() {
            return topic;
        }
    }

    public static final String USAGE = """
            Usage: oshrun -n N [--hostfile FILE | --host H1[:K],H2[:K],...] [--map-by slot|node] [--ssh CMD]
                          [--rendezvous-address ADDR] [--nodes K] [--hosts H] [--oversubscribe] [--tag-output]
                          [--timeout SECONDS] [--stopped-timeout SECONDS] [--heartbeat SECONDS]
                          [--jfr DIR] [--jvm-defaults=auto|none] [JVM options...]
                          (-cp CLASSPATH MainClass | -jar app.jar | -p MODULEPATH -m MODULE[/MainClass]) [program args...]
                   oshrun --info | --version | --help

            Starts N Java processes (PEs) of one OpenSHMEM job and waits for all of them: on this
            machine, over ssh on the hosts of --hostfile or --host, or, inside a Slurm allocation
            (SLURM_JOB_ID set) without those options, with one srun step on the allocation's nodes.

              -n, -np N          number of PEs (required, at least 1)
              --nodes K          split the N PEs into K pseudo-nodes (1 <= K <= N) in blocks: PE r is
                                 on node r*K/N. PEs of different nodes do not share memory: they
                                 reach each other only through the network engine (SHMEM_NETWORK,
                                 UCX over tcp), as on a cluster; each node is also a host
              --hosts H          split the N PEs into H pseudo-hosts (1 <= H <= N) in blocks: PE r is
                                 on host r*H/N. Teams SHARED, host and leaders, shmem_ptr and the
                                 collective algorithms treat each pseudo-host as a separate machine;
                                 data still moves through the node's shared memory (with --nodes,
                                 every host must lie within one node)
              --hostfile FILE    run over ssh on FILE's hosts (Open MPI format: 'HOST [slots=K]' a line,
                                 # comments); a host takes up to its slots (default 1) PEs
              --host LIST        the same from the command line: HOST[:SLOTS],...
              --map-by slot|node place ranks in blocks filling each host's slots (slot, the default),
                                 or round-robin, one per host in turn (node)
              --ssh CMD          the command run instead of 'ssh' (split into words like a shell;
                                 default $OSHRUN_SSH, else ssh); oshrun adds -o BatchMode=yes.
                                 Every host needs the same java and class path as this one
              --rendezvous-address ADDR
                                 the address PEs reach oshrun at (default: loopback on one machine,
                                 else this machine's address on the route to the first other host)
              --oversubscribe    more PEs than cores (or slots) are intended (else oshrun warns; waits then
                                 yield the core at once instead of spinning)
              --tag-output       prefix each output line with [1,<rank>]<stdout>: or [1,<rank>]<stderr>:
              --timeout SECONDS  end the job (status 124) if it runs longer than SECONDS
              --stopped-timeout SECONDS
                                 end the job (status 1) when a PE has been stopped (SIGSTOP, ^Z, a
                                 debugger) for SECONDS. By default a stopped PE is only reported
                                 ("oshrun: PE 3 ... has been stopped ... for 5 s", again now and
                                 then, and when it resumes): a debugger stops PEs on purpose
              --heartbeat SECONDS
                                 end the job (status 1) naming a host beyond this machine that has
                                 not answered oshrun's heartbeat for SECONDS (default 1; 0: off).
                                 One small frame to and from each host per SECONDS/4. A host whose
                                 PEs are all stopped (a debugger) looks gone: raise it, or 0
              --jfr DIR          record every PE with Java Flight Recorder into DIR/pe-<rank>.jfr
                                 (created if missing; on other hosts the same path must be writable):
                                 JFR's default settings plus shmem4j's events (shmem_pcontrol chooses
                                 their detail)
              --jvm-defaults=auto|none
                                 auto (default): each PE's JVM gets its share of its node's cores
                                 (-XX:ActiveProcessorCount=ceil(cores/PEs on the node), so that the JVM
                                 sizes its GC and JIT threads, and below 2 picks the serial GC),
                                 -Xbatch when a node's PEs fill its cores (no core is free for
                                 background compilation), from 3 PEs on a node a share of half its
                                 memory for the heaps (-XX:MaxRAMPercentage=50/PEs), and the library's
                                 AOT cache beside the launcher jar (-XX:AOTCache); an option of yours
                                 of the same kind wins.
                                 none: only your options. SHMEM_INFO=1 prints the choice
              -h, --help         print this help
              --version          print the version of shmem4j (and its git commit)
              --info             print what shmem4j finds here: version, JDK, transports (shared
                                 memory and its free space, UCX), PMIx, every SHMEM_* parameter
                                 with its default and current value, the collective algorithms
              JVM options        -X..., -XX:..., -D..., -ea/-da/-esa/-dsa, -verbose..., -agentlib:,
                                 -agentpath:, -javaagent:, and the JDK's -- options (--add-opens,
                                 --enable-native-access=ALL-UNNAMED, --enable-preview, ...); given to
                                 every PE. Any other option is a usage error
              -cp, -classpath, --class-path CLASSPATH MainClass
                                 run MainClass; the shmem4j library is added to the class path
              -jar app.jar       run the Main-Class of app.jar (with its manifest Class-Path)
              -p, --module-path MODULEPATH -m, --module MODULE[/MainClass]
                                 run MainClass (default: MODULE's own main class) of MODULE, found
                                 on MODULEPATH; the shmem4j library is added to the module path

            The job succeeds (status 0) when every PE finalized and exited with status 0. If a PE
            dies before finalizing, the others are ended and oshrun exits with that PE's status;
            shmem_global_exit(status) ends the job with that status.
            Environment: SHMEM_BOOTSTRAP_TIMEOUT_S (default 60) bounds the wait for all PEs to
            call shmem_init once one has; SHMEM_SHM_DIR (default /dev/shm) is where the job's
            shared-memory files are cleaned up.
            """;

    /** JVM options whose value is the next argument (when not written as {@code --opt=value}). */
    private static final Set<String> JVM_OPTIONS_WITH_VALUE = Set.of("--add-opens", "--add-exports", "--add-reads",
            "--add-modules", "--enable-native-access", "--limit-modules", "--patch-module",
            "--upgrade-module-path", "--illegal-native-access");
    /** The JDK's other long options a PE may take (with {@code =value} where they have one). */
    private static final Set<String> JVM_LONG_OPTIONS = Set.of("--enable-preview", "--sun-misc-unsafe-memory-access",
            "--finalization", "--show-module-resolution", "--validate-modules", "--disable-@files");
    /** Prefixes of the JVM's single-dash options. */
    private static final List<String> JVM_OPTION_PREFIXES = List.of("-X", "-D", "-verbose", "-agentlib:", "-agentpath:",
            "-javaagent:", "-ea", "-da", "-esa", "-dsa", "-enableassertions", "-disableassertions",
            "-enablesystemassertions", "-disablesystemassertions", "-server", "-splash:");

    /** True for an option the JVM takes: the only options besides oshrun's own that oshrun accepts. */
    static boolean isJvmOption(String a) {
        String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
        return JVM_OPTIONS_WITH_VALUE.contains(name) || JVM_LONG_OPTIONS.contains(name)
                || (!a.startsWith("--") && JVM_OPTION_PREFIXES.stream().anyMatch(a::startsWith));
    }

    /** {@code --jfr DIR} as an absolute path, created if missing: the PEs write their recordings there. */
    private static Path jfrDirectory(String dir) throws UsageException {
        Path path = Path.of(dir).toAbsolutePath().normalize();
        try {
            Files.createDirectories(path);
        } catch (IOException e) {
            throw new UsageException("--jfr " + dir + ": cannot create the directory (" + e + ")");
        }
        if (!Files.isWritable(path)) {
            throw new UsageException("--jfr " + dir + ": the directory is not writable");
        }
        return path;
    }

    /** A positive number of seconds given to {@code option}, to the millisecond. */
    private static Duration seconds(String v, String option) throws UsageException {
        try {
            double s = Double.parseDouble(v);
            if (!(s > 0) || s > 1e9) {
                throw new NumberFormatException();
            }
            return Duration.ofMillis((long) Math.ceil(s * 1000));
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a positive number of seconds, not '" + v + "'");
        }
    }

    /** {@code d} as it would be given on the command line: "2", "2.5". */
    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? Long.toString(ms / 1000) : Double.toString(ms / 1000.0);
    }

    /** Parses {@code args} (reading the manifest for {@code -jar}). */
    public static LaunchOptions parse(List<String> args) throws UsageException, HelpRequested {
        Integer pes = null;
        boolean tag = false;
        Duration timeout = null, stoppedTimeout = null, heartbeat = Heartbeat.DEFAULT_TIMEOUT;
        Integer hosts = null;
        Integer nodes = null;
        boolean oversubscribe = false;
        boolean jvmDefaults = true;
        List<Hosts.Slots> hostSlots = List.of();
        String hostOption = null;
        boolean byNode = false;
        List<String> ssh = null;
        String rendezvousAddress = null;
        var jvm = new ArrayList<String>();
        List<String> modulePath = List.of();
        int i = 0;
        while (true) {
            if (i >= args.size()) {
                throw new UsageException(pes == null && jvm.isEmpty() && !tag ? "nothing to run"
                        : "missing -cp CLASSPATH MainClass, -jar app.jar or -m MODULE");
            }
            String a = args.get(i);
            if (a.startsWith("--jvm-defaults=")) {
                jvmDefaults = jvmDefaults(a.substring("--jvm-defaults=".length()));
                i++;
                continue;
            }
            switch (a) {
                case "-h", "--help", "-help" -> throw new HelpRequested(HelpRequested.Topic.USAGE);
                case "--version" -> throw new HelpRequested(HelpRequested.Topic.VERSION);
                case "--info" -> throw new HelpRequested(HelpRequested.Topic.INFO);
                case "-n", "-np", "--np" -> {
                    String v = value(args, i++, a);
                    try {
                        pes = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        throw new UsageException(a + " needs a number of PEs, not '" + v + "'");
                    }
                    if (pes < 1) {
                        throw new UsageException(a + " must be at least 1, not " + pes);
                    }
                }
                case "--hosts" -> hosts = count(value(args, i++, a), a, "pseudo-hosts");
                case "--nodes" -> nodes = count(value(args, i++, a), a, "pseudo-nodes");
                case "--hostfile", "--host", "-H" -> {
                    if (hostOption != null) {
                        throw new UsageException(a + " and " + hostOption + " cannot be given together");
                    }
                    hostOption = a;
                    String v = value(args, i++, a);
                    hostSlots = a.equals("--hostfile") ? Hosts.readHostfile(Path.of(v)) : Hosts.parseHostList(v);
                }
                case "--map-by" -> {
                    String v = value(args, i++, a);
                    byNode = switch (v) {
                        case "slot" -> false;
                        case "node" -> true;
                        default -> throw new UsageException("--map-by takes slot or node, not '" + v + "'");
                    };
                }
                case "--ssh" -> {
                    String v = value(args, i++, a);
                    try {
                        ssh = ShellWords.split(v);
                    } catch (UsageException e) {
                        throw new UsageException("--ssh: " + e.getMessage());
                    }
                    if (ssh.isEmpty()) {
                        throw new UsageException("--ssh needs a command, not '" + v + "'");
                    }
                }
                case "--rendezvous-address" -> rendezvousAddress = value(args, i++, a);
                case "--tag-output" -> tag = true;
                case "--jfr" -> jvm.add("-D" + PeMain.JFR_DIR_PROPERTY + "=" + jfrDirectory(value(args, i++, a)));
                case "--oversubscribe" -> oversubscribe = true;
                case "--jvm-defaults" -> jvmDefaults = jvmDefaults(value(args, i++, a));
                case "--timeout" -> timeout = seconds(value(args, i++, a), a);
                case "--stopped-timeout" -> stoppedTimeout = seconds(value(args, i++, a), a);
                case "--heartbeat" -> {
                    String v = value(args, i++, a);
                    heartbeat = v.matches("0*(\\.0*)?") ? null : seconds(v, a);
                }
                case "-cp", "-classpath", "--class-path" -> {
                    String cp = value(args, i++, a);
                    if (i + 1 >= args.size()) {
                        throw new UsageException(a + " " + cp + " must be followed by the main class");
                    }
                    String main = args.get(i + 1);
                    if (main.startsWith("-")) {
                        throw new UsageException("expected the main class after " + a + " " + cp + ", not '" + main + "'");
                    }
                    int n = requirePes(pes);
                    return new LaunchOptions(n, tag, timeout, stoppedTimeout, heartbeat, jvm, existing(a, splitPath(cp)), modulePath, null, main,
                            List.copyOf(args.subList(i + 2, args.size())), atMostPes(hosts, "--hosts", n),
                            atMostPes(nodes, "--nodes", n), oversubscribe, jvmDefaults,
                            remote(hostSlots, byNode, ssh, rendezvousAddress, hosts, nodes));
                }
                case "-jar" -> {
                    String jar = value(args, i++, a);
                    int n = requirePes(pes);
                    int h = atMostPes(hosts, "--hosts", n), k = atMostPes(nodes, "--nodes", n);
                    var fromJar = readJar(Path.of(jar));
                    return new LaunchOptions(n, tag, timeout, stoppedTimeout, heartbeat, jvm, fromJar.classpath(), modulePath, null,
                            fromJar.mainClass(), List.copyOf(args.subList(i + 1, args.size())), h, k, oversubscribe, jvmDefaults,
                            remote(hostSlots, byNode, ssh, rendezvousAddress, hosts, nodes));
                }
                case "-p", "--module-path" -> modulePath = existing(a, splitPath(value(args, i++, a)));
                case "-m", "--module" -> {
                    String m = value(args, i++, a);
                    int n = requirePes(pes);
                    int h = atMostPes(hosts, "--hosts", n), k = atMostPes(nodes, "--nodes", n);
                    String module = m.contains("/") ? m.substring(0, m.indexOf('/')) : m;
                    String main = mainClassOf(module, m.contains("/") ? m.substring(m.indexOf('/') + 1) : null, modulePath);
                    return new LaunchOptions(n, tag, timeout, stoppedTimeout, heartbeat, jvm, List.of(), modulePath, module, main,
                            List.copyOf(args.subList(i + 1, args.size())), h, k, oversubscribe, jvmDefaults,
                            remote(hostSlots, byNode, ssh, rendezvousAddress, hosts, nodes));
                }
                default -> {
                    if (a.startsWith("--module-path=")) {
                        modulePath = existing("--module-path", splitPath(a.substring(a.indexOf('=') + 1)));
                        break;
                    }
                    if (!a.startsWith("-")) {
                        throw new UsageException("unexpected '" + a + "': the program must be given as "
                                + "-cp CLASSPATH MainClass, -jar app.jar or -p MODULEPATH -m MODULE[/MainClass]");
                    }
                    if (a.startsWith("-n") && a.length() > 2 && Character.isDigit(a.charAt(2))) {
                        throw new UsageException("write '-n " + a.substring(2) + "', not '" + a + "'");
                    }
                    if (!isJvmOption(a)) {
                        throw new UsageException("unknown option '" + a + "' (neither an oshrun option nor a JVM option)");
                    }
                    jvm.add(a);
                    if (JVM_OPTIONS_WITH_VALUE.contains(a)) {
                        jvm.add(value(args, i++, a));
                    }
                }
            }
            i++;
        }
    }

    /** The remote options, checked against the pseudo-host and pseudo-node splits (which are one machine's). */
    private static Remote remote(List<Hosts.Slots> hostSlots, boolean byNode, List<String> ssh, String rendezvousAddress,
            Integer hosts, Integer nodes) throws UsageException {
        if (!hostSlots.isEmpty() && (hosts != null || nodes != null)) {
            throw new UsageException((hosts != null ? "--hosts" : "--nodes")
                    + " splits this machine; it cannot be combined with --hostfile or --host");
        }
        if (byNode && hostSlots.isEmpty()) {
            throw new UsageException("--map-by node places PEs on the hosts of --hostfile or --host; neither is given");
        }
        return new Remote(hostSlots, byNode, ssh, rendezvousAddress);
    }

    private static boolean jvmDefaults(String v) throws UsageException {
        return switch (v) {
            case "auto" -> true;
            case "none" -> false;
            default -> throw new UsageException("--jvm-defaults takes auto or none, not '" + v + "'");
        };
    }

    private static int requirePes(Integer pes) throws UsageException {
        if (pes == null) {
            throw new UsageException("the number of PEs is missing: give -n N");
        }
        return pes;
    }

    /** The value of a count option ({@code --hosts}, {@code --nodes}): a number of at least 1. */
    private static int count(String v, String option, String what) throws UsageException {
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a number of " + what + ", not '" + v + "'");
        }
        if (n < 1) {
            throw new UsageException(option + " must be at least 1, not " + n);
        }
        return n;
    }

    /** A count option's value checked against the PEs (0 when not given): every group needs a PE. */
    private static int atMostPes(Integer count, String option, int pes) throws UsageException {
        if (count == null) {
            return 0;
        }
        if (count > pes) {
            throw new UsageException(option + " " + count + " is more than the PEs (-n " + pes
                    + "); each needs at least one PE");
        }
        return count;
    }

    private static String value(List<String> args, int i, String option) throws UsageException {
        if (i + 1 >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(i + 1);
    }

    /**
     * The class (or module) path entries, after checking they exist: the JVM skips a missing entry
     * silently, and every PE would then fail alike with a ClassNotFoundException.
     */
    private static List<String> existing(String option, List<String> entries) throws UsageException {
        for (String e : entries) {
            Path p = Path.of(e.endsWith("/*") || e.equals("*") ? e.substring(0, Math.max(0, e.length() - 1)) + "." : e);
            if (!Files.exists(p)) {
                throw new UsageException(option + ": " + (option.contains("module") || option.equals("-p") ? "module" : "class")
                        + " path entry '" + e + "' does not exist");
            }
        }
        return entries;
    }

    private static List<String> splitPath(String cp) {
        var out = new ArrayList<String>();
        for (String e : cp.split(java.io.File.pathSeparator)) {
            if (!e.isEmpty()) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * The main class of {@code -m module[/mainClass]}: {@code mainClass}, or the one the module's
     * descriptor names; the module must be on the module path (each PE would fail alike otherwise).
     */
    private static String mainClassOf(String module, String mainClass, List<String> modulePath) throws UsageException {
        if (module.isEmpty() || (mainClass != null && mainClass.isEmpty())) {
            throw new UsageException("-m takes MODULE or MODULE/MainClass, not '" + module + (mainClass == null ? "" : "/") + "'");
        }
        if (modulePath.isEmpty()) {
            throw new UsageException("-m " + module + ": give the program's module path first (-p MODULEPATH)");
        }
        ModuleReference ref;
        try {
            ref = ModuleFinder.of(modulePath.stream().map(Path::of).toArray(Path[]::new)).find(module).orElse(null);
        } catch (FindException e) {
            throw new UsageException("-p " + String.join(java.io.File.pathSeparator, modulePath) + ": " + e.getMessage());
        }
        if (ref == null) {
            throw new UsageException("-m " + module + ": no such module on the module path "
                    + String.join(java.io.File.pathSeparator, modulePath));
        }
        if (mainClass != null) {
            return mainClass;
        }
        return ref.descriptor().mainClass().orElseThrow(() -> new UsageException("-m " + module
                + ": the module names no main class; give -m " + module + "/MainClass"));
    }

    private record JarProgram(List<String> classpath, String mainClass) {}

    // `java -jar` ignores -cp, so the jar is run as "-cp app.jar:<its Class-Path>:core.jar Main".
    private static JarProgram readJar(Path jar) throws UsageException {
        if (!Files.isRegularFile(jar)) {
            throw new UsageException("-jar " + jar + ": no such file");
        }
        try (var jf = new JarFile(jar.toFile())) {
            var mf = jf.getManifest();
            String main = mf == null ? null : mf.getMainAttributes().getValue("Main-Class");
            if (main == null || main.isBlank()) {
                throw new UsageException("-jar " + jar + ": the manifest has no Main-Class");
            }
            var cp = new ArrayList<String>();
            cp.add(jar.toString());
            String extra = mf.getMainAttributes().getValue("Class-Path");
            if (extra != null) {
                Path dir = jar.toAbsolutePath().getParent();
                for (String url : extra.trim().split("\\s+")) {
                    if (url.isEmpty()) {
                        continue;
                    }
                    // Class-Path entries are URLs relative to the jar's directory.
                    String p;
                    try {
                        p = java.net.URI.create(url).getPath(); // percent-decoded
                    } catch (IllegalArgumentException notAUri) {
                        p = url;
                    }
                    cp.add(dir.resolve(p).normalize().toString());
                }
            }
            return new JarProgram(cp, main.trim());
        } catch (IOException e) {
            throw new UsageException("-jar " + jar + ": cannot read it as a jar: " + e.getMessage());
        }
    }
}
