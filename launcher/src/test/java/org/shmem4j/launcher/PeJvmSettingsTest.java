package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shmem4j.bootstrap.launcher.LaunchEnv;

/** The JVM settings oshrun chooses for a PE from the PEs on its node and the node's cores. */
class PeJvmSettingsTest {
    private static final PeJvmSettings.Aot NO_CACHE = new PeJvmSettings.Aot(null, "none (test)");

    private static List<String> choose(int pes, int cores, String... user) {
        return PeJvmSettings.choose(pes, cores, List.of(user), NO_CACHE).options();
    }

    /** The value of option {@code prefix...} in {@code options}, or null. */
    private static String value(List<String> options, String prefix) {
        return options.stream().filter(o -> o.startsWith(prefix)).map(o -> o.substring(prefix.length())).findFirst()
                .orElse(null);
    }

    @Test
    void eachPeGetsItsShareOfTheNodesCoresRoundedUp() {
        // {PEs on the node, cores, expected ActiveProcessorCount (0: none, the JVM sees the node)}
        int[][] cases = {{1, 2, 0}, {2, 2, 1}, {3, 2, 1}, {4, 2, 1}, {5, 2, 1}, {8, 2, 1}, {1, 64, 0}, {2, 64, 32},
            {3, 4, 2}, {3, 8, 3}, {5, 8, 2}, {8, 8, 1}, {64, 64, 1}};
        for (int[] c : cases) {
            var choice = PeJvmSettings.choose(c[0], c[1], List.of(), NO_CACHE);
            String share = value(choice.options(), "-XX:ActiveProcessorCount=");
            String what = c[0] + " PEs on " + c[1] + " cores: " + choice.options();
            if (c[2] == 0) {
                assertNull(share, what);
                assertEquals(Map.of(), choice.env(), what);
            } else {
                assertEquals(Integer.toString(c[2]), share, what);
                // the library must still see that the node has c[1] cores (oversubscription)
                assertEquals(Map.of(LaunchEnv.NODE_CORES, Integer.toString(c[1]), LaunchEnv.CORE_SHARERS,
                        Integer.toString(c[0])), choice.env(), what);
            }
        }
    }

    @Test
    void fromThreePesOnANodeTheirHeapsShareHalfItsMemory() {
        assertNull(value(choose(1, 2), "-XX:MaxRAMPercentage="), "one PE: the JDK's 25%");
        assertNull(value(choose(2, 2), "-XX:MaxRAMPercentage="), "two PEs: the JDK's 25% each is half");
        assertEquals("16.67", value(choose(3, 2), "-XX:MaxRAMPercentage="));
        assertEquals("12.5", value(choose(4, 2), "-XX:MaxRAMPercentage="));
        assertEquals("6.25", value(choose(8, 2), "-XX:MaxRAMPercentage="));
        assertEquals("0.25", value(choose(200, 64), "-XX:MaxRAMPercentage="));
    }

    @Test
    void pesThatFillTheirNodesCoresCompileInTheForeground() {
        // {PEs on the node, cores, -Xbatch expected}: one PE, or fewer PEs than cores, leave a core to the JIT
        int[][] cases = {{1, 1, 0}, {1, 2, 0}, {2, 2, 1}, {3, 2, 1}, {8, 2, 1}, {2, 4, 0}, {3, 4, 0}, {4, 4, 1},
            {63, 64, 0}, {64, 64, 1}};
        for (int[] c : cases) {
            var options = choose(c[0], c[1]);
            assertEquals(c[2] == 1, options.contains("-Xbatch"), c[0] + " PEs on " + c[1] + " cores: " + options);
        }
        for (String own : List.of("-Xbatch", "-XX:+BackgroundCompilation", "-XX:-BackgroundCompilation")) {
            var choice = PeJvmSettings.choose(4, 2, List.of(own), NO_CACHE);
            assertFalse(choice.options().contains("-Xbatch"), own + ": " + choice.options());
            assertTrue(choice.explained().contains("compilation: yours"), choice::explained);
        }
    }

    @Test
    void theUsersOptionsOfAKindWin() {
        assertNull(value(choose(4, 2, "-XX:ActiveProcessorCount=2"), "-XX:ActiveProcessorCount="));
        for (String heap : List.of("-Xmx1g", "-XX:MaxHeapSize=1g", "-XX:MaxRAMPercentage=40", "-XX:MaxRAM=8g")) {
            var options = choose(4, 2, heap);
            assertNull(value(options, "-XX:MaxRAMPercentage="), heap + ": " + options);
            assertEquals("1", value(options, "-XX:ActiveProcessorCount="), heap + " leaves the processors to oshrun");
        }
        // options of other kinds (a collector, an initial heap) leave every choice in place
        assertEquals(choose(4, 2), choose(4, 2, "-XX:+UseG1GC", "-Xms64m", "-XX:ParallelGCThreads=2"));
        var explained = PeJvmSettings.choose(4, 2, List.of("-Xmx1g", "-XX:ActiveProcessorCount=2"), NO_CACHE).explained();
        assertTrue(explained.contains("processors: yours") && explained.contains("heap: yours"), explained);
    }

    @Test
    void badNodeShapesAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> choose(0, 2));
        assertTrue(e.getMessage().contains("0 PEs"), e::getMessage);
    }

    @Test
    void theAotCacheIsUsedOnlyWhenPresentAndNotOlderThanTheCoreJar(@TempDir Path dir) throws IOException {
        Path launcher = Files.createFile(dir.resolve("shmem4j-launcher.jar"));
        Path core = Files.createFile(dir.resolve("shmem4j.jar"));
        var missing = PeJvmSettings.aotCache(launcher, core, List.of());
        assertNull(missing.path());
        assertTrue(missing.status().contains(PeJvmSettings.AOT_CACHE), missing::status);

        Path cache = Files.createFile(dir.resolve(PeJvmSettings.AOT_CACHE));
        Instant t = Instant.parse("2025-01-01T00:00:00Z");
        Files.setLastModifiedTime(core, FileTime.from(t));
        Files.setLastModifiedTime(cache, FileTime.from(t.plusSeconds(1)));
        assertEquals(cache, PeJvmSettings.aotCache(launcher, core, List.of()).path());
        assertEquals(cache.toString(), value(PeJvmSettings.choose(1, 2, List.of(),
                PeJvmSettings.aotCache(launcher, core, List.of())).options(), "-XX:AOTCache="));

        // a core jar rebuilt after the cache: the JDK would still run the cached classes
        Files.setLastModifiedTime(core, FileTime.from(t.plusSeconds(2)));
        var stale = PeJvmSettings.aotCache(launcher, core, List.of());
        assertNull(stale.path());
        assertTrue(stale.status().contains("older than"), stale::status);
        Files.setLastModifiedTime(core, FileTime.from(t));

        for (String own : List.of("-Xshare:off", "-XX:SharedArchiveFile=x.jsa", "-XX:AOTCache=mine.aot",
                "-XX:AOTCacheOutput=new.aot", "-XX:AOTMode=off", "-XX:ArchiveClassesAtExit=x.jsa")) {
            var a = PeJvmSettings.aotCache(launcher, core, List.of(own));
            assertNull(a.path(), own);
            assertTrue(a.status().contains("your"), a::status);
        }
        // module options other than the training run's: the JDK would refuse the cache
        for (var own : List.of(List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED"), List.of("--add-modules=jdk.incubator.vector"),
                List.of("--enable-native-access=M"), List.of("-Djdk.module.showModuleResolution=true"))) {
            var a = PeJvmSettings.aotCache(launcher, core, own);
            assertNull(a.path(), own::toString);
            assertTrue(a.status().contains("module options"), a::status);
        }
        assertEquals(cache, PeJvmSettings.aotCache(launcher, core, List.of(PeJvmSettings.NATIVE_ACCESS, "-ea", "-Dx=y")).path());
        assertNull(PeJvmSettings.aotCache(dir.resolve("classes"), core, List.of()).path(), "a classes directory has no cache");
    }

    @Test
    void aNodeWhoseCoresOshrunDoesNotKnowCountsThemItself() throws Exception {
        var choice = PeJvmSettings.choose(3, 0, List.of(), NO_CACHE);
        assertTrue(choice.computedOnNode(), choice::toString);
        assertEquals(Map.of(), choice.env(), "the node's script exports the cores");
        // the node's script: 8 cores (Slurm's count) over 3 PEs is a share of 3
        var echo = List.of("sh", "-c", "printf '%s\\n' \"$@\" \"cores=$" + LaunchEnv.NODE_CORES + "\"", "sh", "a b",
                PeJvmSettings.NODE_SHARE, "-XX:ActiveProcessorCount=7");
        var cmd = PeJvmSettings.onNode(choice, 3, echo);
        assertEquals(List.of("a b", "-XX:ActiveProcessorCount=3", "-XX:ActiveProcessorCount=7", "cores=8"),
                run(cmd, Map.of("SLURM_CPUS_ON_NODE", "8")), "only the placeholder is replaced");
        // 3 PEs fill 3 cores or fewer: the compilation placeholder becomes -Xbatch, else it goes
        var withBatch = new ArrayList<>(echo);
        withBatch.add(PeJvmSettings.NODE_BATCH);
        withBatch.add("last");
        var batchCmd = PeJvmSettings.onNode(choice, 3, withBatch);
        assertEquals(List.of("a b", "-XX:ActiveProcessorCount=1", "-XX:ActiveProcessorCount=7", "-Xbatch", "last",
                "cores=3"), run(batchCmd, Map.of("SLURM_CPUS_ON_NODE", "3")));
        assertEquals(List.of("a b", "-XX:ActiveProcessorCount=2", "-XX:ActiveProcessorCount=7", "last", "cores=4"),
                run(batchCmd, Map.of("SLURM_CPUS_ON_NODE", "4")));
        assertTrue(choice.options().contains(PeJvmSettings.NODE_BATCH), choice::toString);
        // without Slurm, the online cores; 1000 PEs on the node leave each a share of 1 and fill them
        var many = PeJvmSettings.onNode(PeJvmSettings.choose(1000, 0, List.of(), NO_CACHE), 1000, withBatch);
        var out = run(many, Map.of());
        assertEquals("-XX:ActiveProcessorCount=1", out.get(1));
        assertEquals(List.of("-Xbatch", "last", "cores=" + Runtime.getRuntime().availableProcessors()), out.subList(3, 6));
        // known cores: the command is left as it is
        assertEquals(echo, PeJvmSettings.onNode(PeJvmSettings.choose(3, 8, List.of(), NO_CACHE), 3, echo));
    }

    private static List<String> run(List<String> cmd, Map<String, String> env) throws Exception {
        var pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("SLURM_CPUS_ON_NODE");
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "sh did not end");
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void everyMachineOfAJobGetsTheSettingsOfItsOwnPes(@TempDir Path dir) throws Exception {
        // this machine with 2 cores, 4 PEs: the defaults come before the user's options
        var opts = LaunchOptions.parse(List.of("-n", "4", "-XX:+UseG1GC", "-cp", dir.toString(), "Main"));
        var local = new PeCommands(opts, new LocalPeStarter(), false, 2, 1);
        List<String> cmd = local.command(3);
        assertTrue(cmd.indexOf("-XX:ActiveProcessorCount=1") > 0, cmd::toString);
        assertTrue(cmd.indexOf("-XX:ActiveProcessorCount=1") < cmd.indexOf("-XX:+UseG1GC"), cmd::toString);
        assertEquals(Map.of(LaunchEnv.NODE_CORES, "2", LaunchEnv.CORE_SHARERS, "4"), local.env(0));

        var none = new PeCommands(LaunchOptions.parse(List.of("-n", "4", "--jvm-defaults=none", "-cp", dir.toString(),
                "Main")), new LocalPeStarter(), false, 2, 1);
        assertTrue(local.command(3).contains("-Xbatch"), "4 PEs on 2 cores: " + local.command(3));
        assertFalse(none.command(0).stream().anyMatch(o -> o.startsWith("-XX:ActiveProcessorCount")
                || o.startsWith("-XX:MaxRAMPercentage") || o.startsWith("-XX:AOTCache") || o.startsWith("-Xbatch")),
                none.command(0)::toString);

        // over ssh: one PE here, three on host b (whose cores b counts)
        String here = LaunchEnv.kernelHostName();
        var four = LaunchOptions.parse(List.of("-n", "4", "-cp", dir.toString(), "Main"));
        var ssh = new PeCommands(four, new SshPeStarter(List.of("ssh"), new String[] {here, "b", "b", "b"},
                new PrintStream(new ByteArrayOutputStream())), false, 2, 1);
        assertEquals("java", Path.of(ssh.command(0).getFirst()).getFileName().toString(), "one PE here: as it is");
        assertFalse(ssh.command(0).stream().anyMatch(o -> o.startsWith("-XX:ActiveProcessorCount")));
        assertEquals(List.of("sh", "-c", PeJvmSettings.NODE_SCRIPT, "sh", "3"), ssh.command(1).subList(0, 5));
        assertTrue(ssh.command(3).contains(PeJvmSettings.NODE_SHARE));

        // under Slurm: 5 PEs on 2 nodes, at most 3 on one
        var slurm = new PeCommands(LaunchOptions.parse(List.of("-n", "5", "-cp", dir.toString(), "Main")),
                new LocalPeStarter(), true, 2, 2);
        assertEquals(List.of("sh", "-c", PeJvmSettings.NODE_SCRIPT, "sh", "3"), slurm.command(0).subList(0, 5));

        var log = new ByteArrayOutputStream();
        ssh.explain(new PrintStream(log, true, StandardCharsets.UTF_8));
        String text = log.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("on this machine: 1 PE") && text.contains("on host b: 3 PEs"), text);
    }
}
