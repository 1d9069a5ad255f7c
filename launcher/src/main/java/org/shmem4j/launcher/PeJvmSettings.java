package org.shmem4j.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.shmem4j.bootstrap.launcher.LaunchEnv;

/**
 * The JVM settings oshrun gives each PE, chosen from how many PEs of the job share its node and
 * how many cores that node has, so that many PEs per node cost what one JVM per core should:
 *
 * <ul>
 * <li>{@code -XX:ActiveProcessorCount=ceil(cores / PEs on the node)} when several PEs share a
 * node: each JVM sizes itself for its share, not for the whole node. The JVM's own ergonomics
 * then choose the collector (serial below two processors, as on a one-CPU machine), the GC and
 * JIT thread counts, and the common fork-join pool's parallelism, so the choice follows the JDK.
 * The node's real core count goes to the PE as {@link LaunchEnv#NODE_CORES}, and the PEs sharing
 * those cores as {@link LaunchEnv#CORE_SHARERS} (pseudo-nodes of one machine share its cores), by
 * which the library judges oversubscription.</li>
 * <li>{@code -Xbatch} when a node has at least as many PEs as cores (and more than one PE): no
 * core is free for the JIT's background compilation, so the compiler thread only time-slices with
 * its own PE, which meanwhile runs slow, profiled code while the job's other PEs wait for it (a
 * 2-PE stencil on 2 cores: 2100-5500 MFlops with background compilation, 7200-7400 without).
 * Compiling in the foreground costs the same CPU and makes the PE run its fast code as soon as it
 * exists.</li>
 * <li>{@code -XX:MaxRAMPercentage=50/PEs} from three PEs on a node: together the PEs' heaps may
 * take half of its memory (the symmetric heaps, in {@code /dev/shm}, need memory too), where the
 * JDK's 25% each would promise them more than the node has.</li>
 * <li>{@code -XX:AOTCache=shmem4j-pe.aot}, the ahead-of-time cache the build makes beside the
 * launcher jar with a training run through oshrun (JDK 25, JEP 483/514/515): the library's and the
 * JDK's classes a PE needs come loaded and linked, with method profiles, instead of being read,
 * verified and profiled again by every PE. Used only while it is newer than the core jar (the JDK
 * does not notice a rebuilt jar and would run the cached classes), and only without module options
 * of the user's (the JDK refuses a cache made with other ones, and then starts slower than with
 * none).</li>
 * </ul>
 *
 * <p>A family the user sets himself (any option of it) is left out, and {@code --jvm-defaults=none}
 * leaves all of them out. When oshrun does not know a node's cores (a PE started over ssh or by
 * srun), the PE's command starts with a small {@code sh} script ({@link #onNode}) that counts them
 * there.
 */
final class PeJvmSettings {
    /** The AOT cache's file name, beside the launcher jar. */
    static final String AOT_CACHE = "shmem4j-pe.aot";
    /** Stands for the processor share in a command whose node computes it ({@link #onNode}). */
    static final String NODE_SHARE = "-XX:ActiveProcessorCount=@node-share@";
    /** Stands for {@code -Xbatch} in a command whose node decides it: kept when its PEs fill its cores. */
    static final String NODE_BATCH = "-Xbatch@node-full@";
    /** The JDK's default maximum heap, in percent of the machine's memory. */
    private static final double JDK_MAX_RAM_PERCENT = 25;
    /** The part of a node's memory that the Java heaps of all its PEs may take together. */
    private static final double NODE_HEAP_PERCENT = 50;

    /** Options that choose a processor count, the heap's size, or a class-data or AOT cache. */
    private static final List<String> CPU_OPTIONS = List.of("-XX:ActiveProcessorCount");
    private static final List<String> COMPILATION_OPTIONS = List.of("-Xbatch", "-XX:+BackgroundCompilation",
            "-XX:-BackgroundCompilation");
    private static final List<String> HEAP_OPTIONS = List.of("-Xmx", "-XX:MaxHeapSize", "-XX:MaxRAMPercentage",
            "-XX:MaxRAMFraction", "-XX:MaxRAM=");
    private static final List<String> CACHE_OPTIONS = List.of("-Xshare", "-XX:SharedArchiveFile", "-XX:AOTCache",
            "-XX:AOTMode", "-XX:AOTConfiguration", "-XX:ArchiveClassesAtExit", "-XX:+AutoCreateSharedArchive",
            "-XX:SharedClassListFile", "-XX:DumpLoadedClassList");

    /**
     * Options that change the module graph (and {@code -p}): the JDK uses an AOT cache only with the module options
     * of its training run (else it drops the cache and even its own class-data archive, and the PE
     * starts slower than with none). The training run had oshrun's {@link #NATIVE_ACCESS} only.
     */
    private static final List<String> MODULE_OPTIONS = List.of("--add-opens", "--add-exports", "--add-reads",
            "--add-modules", "--limit-modules", "--patch-module", "--module-path", "--upgrade-module-path",
            "--enable-native-access", "--illegal-native-access", "-Djdk.module.");
    /** The module option oshrun gives every PE, and so the training run. */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /**
     * The sh script a remote PE starts with: {@code sh -c SCRIPT sh PES java ...} counts the node's
     * cores (Slurm's for the job, else the online ones), puts the PE's share in place of
     * {@link #NODE_SHARE}, {@code -Xbatch} in place of {@link #NODE_BATCH} when the PEs fill the
     * cores (else drops it), exports {@link LaunchEnv#NODE_CORES} and becomes the command.
     */
    static final String NODE_SCRIPT = "c=${SLURM_CPUS_ON_NODE:-$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)}; "
            + "p=$1; s=$(( (c + p - 1) / p )); shift; "
            + "for a do shift; case $a in '" + NODE_SHARE + "') a=-XX:ActiveProcessorCount=$s;; '" + NODE_BATCH
            + "') [ \"$p\" -ge \"$c\" ] || continue; a=-Xbatch;; esac; set -- \"$@\" \"$a\"; done; "
            + LaunchEnv.NODE_CORES + "=$c exec \"$@\"";

    private PeJvmSettings() {}

    /**
     * What the PEs of one node get.
     *
     * @param options   the JVM options, to go before the user's
     * @param explained one line saying what was chosen and why, for {@code SHMEM_INFO}
     * @param env       variables the PEs need with these options ({@link LaunchEnv#NODE_CORES})
     */
    record Choice(List<String> options, String explained, Map<String, String> env) {
        /** The user's own choice: nothing added. */
        static final Choice NONE = new Choice(List.of(), "none (--jvm-defaults=none)", Map.of());

        /** True when the node must compute its processor share or compilation mode itself ({@link #onNode}). */
        boolean computedOnNode() {
            return options.contains(NODE_SHARE) || options.contains(NODE_BATCH);
        }
    }

    /** The AOT cache to give the PEs ({@code path} null when none) and why. */
    record Aot(Path path, String status) {}

    /**
     * The settings of the PEs on a node.
     *
     * @param pesOnNode the job's PEs on the node, at least 1
     * @param cores     the node's cores, or 0 when only the node can count them
     * @param user      the user's JVM options
     * @param aot       the AOT cache
     */
    static Choice choose(int pesOnNode, int cores, List<String> user, Aot aot) {
        if (pesOnNode < 1 || cores < 0) {
            throw new IllegalArgumentException("oshrun: " + pesOnNode + " PEs on a node of " + cores + " cores");
        }
        var options = new ArrayList<String>();
        var why = new ArrayList<String>();
        var env = Map.<String, String>of();
        if (pesOnNode > 1) {
            if (userSets(user, CPU_OPTIONS)) {
                why.add("processors: yours");
            } else if (cores == 0) {
                options.add(NODE_SHARE);
                why.add("-XX:ActiveProcessorCount=ceil(the node's cores/" + pesOnNode + ")");
            } else {
                int share = (cores + pesOnNode - 1) / pesOnNode;
                options.add("-XX:ActiveProcessorCount=" + share);
                env = Map.of(LaunchEnv.NODE_CORES, Integer.toString(cores), LaunchEnv.CORE_SHARERS,
                        Integer.toString(pesOnNode));
                why.add("-XX:ActiveProcessorCount=" + share + " (" + cores + " cores/" + pesOnNode + " PEs"
                        + (share < 2 ? ": serial GC, 2 JIT threads" : "") + ")");
            }
            if (userSets(user, COMPILATION_OPTIONS)) {
                why.add("compilation: yours");
            } else if (cores == 0) {
                options.add(NODE_BATCH);
                why.add("-Xbatch if the node has at most " + pesOnNode + " cores");
            } else if (pesOnNode >= cores) {
                options.add("-Xbatch");
                why.add("-Xbatch (no core free for background compilation)");
            }
        }
        double heapPercent = NODE_HEAP_PERCENT / pesOnNode;
        if (heapPercent < JDK_MAX_RAM_PERCENT) {
            if (userSets(user, HEAP_OPTIONS)) {
                why.add("heap: yours");
            } else {
                String p = percent(heapPercent);
                options.add("-XX:MaxRAMPercentage=" + p);
                why.add("-XX:MaxRAMPercentage=" + p + " (" + percent(NODE_HEAP_PERCENT) + "% of memory/" + pesOnNode + " PEs)");
            }
        }
        if (aot.path() != null) {
            options.add("-XX:AOTCache=" + aot.path());
        }
        why.add("AOT cache: " + aot.status());
        return new Choice(List.copyOf(options), pesOnNode + " PE" + (pesOnNode == 1 ? "" : "s") + " on a node of "
                + (cores == 0 ? "its" : Integer.toString(cores)) + " cores: " + String.join("; ", why), env);
    }

    /**
     * The AOT cache beside {@code launcherJar} for PEs whose class path starts with
     * {@code coreJar}: usable when both are jars, it exists, it is not older than the core jar,
     * and the user chose no class-data or AOT option of his own.
     */
    static Aot aotCache(Path launcherJar, Path coreJar, List<String> user) {
        if (userSets(user, CACHE_OPTIONS) || user.stream().anyMatch(o -> o.startsWith("-XX:AOTCacheOutput"))) {
            return new Aot(null, "none (your class-data/AOT options)");
        }
        var modules = user.stream().filter(o -> o.equals("-p") || !o.equals(NATIVE_ACCESS) && MODULE_OPTIONS.stream()
                .anyMatch(o::startsWith)).toList();
        if (!modules.isEmpty()) {
            return new Aot(null, "none (your module options " + modules + " differ from its training run's, so the JDK"
                    + " could not use it)");
        }
        if (!launcherJar.toString().endsWith(".jar") || !coreJar.toString().endsWith(".jar")) {
            return new Aot(null, "none (the library is not run from jars)");
        }
        Path cache = launcherJar.resolveSibling(AOT_CACHE);
        try {
            if (!Files.isRegularFile(cache)) {
                return new Aot(null, "none (no " + cache + "; bin/mvn25 package makes it)");
            }
            if (Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(coreJar)) < 0) {
                return new Aot(null, "none (" + cache + " is older than " + coreJar + "; bin/mvn25 package remakes it)");
            }
        } catch (IOException e) {
            return new Aot(null, "none (" + e.getMessage() + ")");
        }
        return new Aot(cache, cache.toString());
    }

    /**
     * {@code command} as started on its node: unchanged when {@code choice} needs nothing from the
     * node, else behind {@link #NODE_SCRIPT}.
     */
    static List<String> onNode(Choice choice, int pesOnNode, List<String> command) {
        if (!choice.computedOnNode()) {
            return command;
        }
        var out = new ArrayList<String>(List.of("sh", "-c", NODE_SCRIPT, "sh", Integer.toString(pesOnNode)));
        out.addAll(command);
        return out;
    }

    private static boolean userSets(List<String> user, List<String> family) {
        return user.stream().anyMatch(o -> family.stream().anyMatch(o::startsWith));
    }

    /** 12.5, 16.67, 6.25: two decimals at most, no trailing zeros. */
    private static String percent(double p) {
        return String.format(Locale.ROOT, "%.2f", p).replaceAll("\\.?0+$", "");
    }
}
