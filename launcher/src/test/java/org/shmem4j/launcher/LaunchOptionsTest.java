package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
