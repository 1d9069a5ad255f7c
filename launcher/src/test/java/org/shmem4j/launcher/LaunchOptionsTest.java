package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What oshrun accepts on its command line, and what it refuses before starting anything. */
class LaunchOptionsTest {

    @Test
    void anUnknownOptionIsAUsageErrorNotAJvmOption(@TempDir Path dir) {
        for (String bad : List.of("--frobnicate", "--tag-outptu", "-frob", "--timout")) {
            var e = assertThrows(LaunchOptions.UsageException.class,
                    () -> LaunchOptions.parse(List.of("-n", "2", bad, "-cp", dir.toString(), "Main")), bad);
            assertTrue(e.getMessage().contains(bad), e::getMessage);
        }
    }

    @Test
    void helpVersionAndInfoAreQuestionsNotJobs() {
        var topics = java.util.Map.of("--help", LaunchOptions.HelpRequested.Topic.USAGE,
                "--version", LaunchOptions.HelpRequested.Topic.VERSION, "--info", LaunchOptions.HelpRequested.Topic.INFO);
        topics.forEach((option, topic) -> {
            var asked = assertThrows(LaunchOptions.HelpRequested.class, () -> LaunchOptions.parse(List.of(option)), option);
            assertEquals(topic, asked.topic(), option);
        });
    }

    @Test
    void jvmOptionsPassThrough(@TempDir Path dir) throws Exception {
        List<String> jvm = List.of("-Xmx1g", "-XX:+UseSerialGC", "-Dkey=value", "-ea", "-verbose:gc",
                "--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--enable-preview");
        var args = new java.util.ArrayList<>(List.of("-n", "2"));
        args.addAll(jvm);
        args.addAll(List.of("-cp", dir.toString(), "Main", "--frobnicate"));
        LaunchOptions o = LaunchOptions.parse(args);
        assertEquals(jvm, o.jvmOptions());
        assertEquals(List.of("--frobnicate"), o.programArgs(), "the program's own arguments are not oshrun's business");
    }

    @Test
    void jfrCreatesItsDirectoryAndTellsThePesWhereToRecord(@TempDir Path dir) throws Exception {
        Path recordings = dir.resolve("a/b");
        LaunchOptions o = LaunchOptions.parse(List.of("-n", "2", "--jfr", recordings.toString(), "-Xmx1g", "-cp", dir.toString(),
                "Main"));
        assertTrue(Files.isDirectory(recordings));
        assertEquals(List.of("-D" + org.shmem4j.pe.PeMain.JFR_DIR_PROPERTY + "=" + recordings, "-Xmx1g"),
                o.jvmOptions());
        Path file = Files.createFile(dir.resolve("file"));
        var e = assertThrows(LaunchOptions.UsageException.class,
                () -> LaunchOptions.parse(List.of("-n", "2", "--jfr", file.toString(), "-cp", dir.toString(), "Main")));
        assertTrue(e.getMessage().startsWith("--jfr " + file + ": cannot create the directory"), e::getMessage);
    }

    @Test
    void missingClassPathEntriesAreReportedBeforeAnythingStarts(@TempDir Path dir) throws IOException {
        Path jar = Files.createFile(dir.resolve("app.jar"));
        String missing = dir.resolve("typo.jar").toString();
        var e = assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse(
                List.of("-n", "2", "-cp", jar + java.io.File.pathSeparator + missing, "Main")));
        assertTrue(e.getMessage().contains(missing), e::getMessage);
    }

    @Test
    void wildcardEntriesAndOversubscribeAreAccepted(@TempDir Path dir) throws Exception {
        LaunchOptions o = LaunchOptions.parse(List.of("-n", "3", "--oversubscribe", "-cp", dir + "/*", "Main"));
        assertTrue(o.oversubscribe());
        assertEquals(List.of(dir + "/*"), o.classpath());
    }

    @Test
    void jvmDefaultsAreOnUnlessSwitchedOff(@TempDir Path dir) throws Exception {
        assertTrue(LaunchOptions.parse(List.of("-n", "2", "-cp", dir.toString(), "Main")).jvmDefaults());
        assertTrue(LaunchOptions.parse(List.of("-n", "2", "--jvm-defaults=auto", "-cp", dir.toString(), "Main")).jvmDefaults());
        assertFalse(LaunchOptions.parse(List.of("-n", "2", "--jvm-defaults=none", "-cp", dir.toString(), "Main")).jvmDefaults());
        assertFalse(LaunchOptions.parse(List.of("--jvm-defaults", "none", "-n", "2", "-cp", dir.toString(), "Main")).jvmDefaults());
        for (var bad : List.of(List.of("--jvm-defaults=off"), List.of("--jvm-defaults", "serial"))) {
            var args = new java.util.ArrayList<>(bad);
            args.addAll(List.of("-n", "2", "-cp", dir.toString(), "Main"));
            var e = assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse(args), bad::toString);
            assertTrue(e.getMessage().contains("--jvm-defaults") && e.getMessage().contains(bad.getLast().replaceFirst(".*=", "")),
                    e::getMessage);
        }
    }

    @Test
    void remoteOptions(@TempDir Path dir) throws Exception {
        LaunchOptions o = LaunchOptions.parse(List.of("-n", "4", "--host", "a:2,b:2", "--map-by", "node", "--ssh",
                "ssh -p 2222", "--rendezvous-address", "10.0.0.1", "-cp", dir.toString(), "Main"));
        assertEquals(new LaunchOptions.Remote(List.of(new Hosts.Slots("a", 2), new Hosts.Slots("b", 2)), true,
                List.of("ssh", "-p", "2222"), "10.0.0.1"), o.remote());
        assertEquals(new LaunchOptions.Remote(List.of(), false, null, null),
                LaunchOptions.parse(List.of("-n", "1", "-cp", dir.toString(), "Main")).remote());
    }

    @Test
    void badRemoteOptionsNameTheOption(@TempDir Path dir) throws IOException {
        Path hostfile = Files.writeString(dir.resolve("hosts"), "a slots=2\n");
        for (var bad : List.of(List.of("--map-by", "core"), List.of("--map-by", "node"), List.of("--host", "a:2", "--hostfile", hostfile.toString()),
                List.of("--host", "a:2", "--hosts", "2"), List.of("--nodes", "2", "--hostfile", hostfile.toString()),
                List.of("--ssh", "ssh 'unterminated"), List.of("--ssh", " "), List.of("--host", "a:zero"))) {
            var args = new java.util.ArrayList<>(List.of("-n", "2"));
            args.addAll(bad);
            args.addAll(List.of("-cp", dir.toString(), "Main"));
            var e = assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse(args), bad::toString);
            assertTrue(e.getMessage().contains(bad.get(0)), e::getMessage);
        }
    }
}
