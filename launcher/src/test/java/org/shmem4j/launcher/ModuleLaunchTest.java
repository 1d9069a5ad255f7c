package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code oshrun -p MODULEPATH -m MODULE[/MainClass]}: what it accepts and the PE command it makes
 * (a job on the module path runs in dist/check-modules.sh).
 */
class ModuleLaunchTest {

    /** An exploded module {@code demo} with class {@code demo.Main}, compiled into {@code dir/demo}. */
    private static Path demoModule(Path dir) throws IOException {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("demo"));
        Files.writeString(src.resolve("module-info.java"), "module demo { }\n");
        Files.writeString(src.resolve("demo/Main.java"), "package demo; public class Main { public static void main(String[] a) { } }\n");
        Path out = dir.resolve("mods/demo");
        int rc = ToolProvider.findFirst("javac").orElseThrow().run(System.out, System.err, "-d", out.toString(),
                src.resolve("module-info.java").toString(), src.resolve("demo/Main.java").toString());
        assertEquals(0, rc, "javac of the demo module");
        return dir.resolve("mods");
    }

    @Test
    void aModuleAndItsMainClassAreFoundOnTheModulePath(@TempDir Path dir) throws Exception {
        Path mods = demoModule(dir);
        LaunchOptions o = LaunchOptions.parse(List.of("-n", "2", "-Xmx1g", "-p", mods.toString(), "-m", "demo/demo.Main", "x", "-n"));
        assertEquals("demo", o.mainModule());
        assertEquals("demo.Main", o.mainClass());
        assertEquals(List.of(mods.toString()), o.modulePath());
        assertEquals(List.of("-Xmx1g"), o.jvmOptions(), "the module path is oshrun's, not passed through as given");
        assertEquals(List.of("x", "-n"), o.programArgs());
        o = LaunchOptions.parse(List.of("-n", "1", "--module-path=" + mods, "--module", "demo/demo.Main"));
        assertEquals("demo", o.mainModule());
    }

    @Test
    void wrongModulesAreUsageErrorsBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        Path mods = demoModule(dir);
        var noMain = assertThrows(LaunchOptions.UsageException.class,
                () -> LaunchOptions.parse(List.of("-n", "2", "-p", mods.toString(), "-m", "demo")));
        assertTrue(noMain.getMessage().contains("-m demo: the module names no main class"), noMain::getMessage);
        var missing = assertThrows(LaunchOptions.UsageException.class,
                () -> LaunchOptions.parse(List.of("-n", "2", "-p", mods.toString(), "-m", "other/x.Main")));
        assertTrue(missing.getMessage().contains("-m other: no such module"), missing::getMessage);
        var noPath = assertThrows(LaunchOptions.UsageException.class,
                () -> LaunchOptions.parse(List.of("-n", "2", "-m", "demo/demo.Main")));
        assertTrue(noPath.getMessage().contains("-p MODULEPATH"), noPath::getMessage);
        String typo = dir.resolve("typo").toString();
        var badEntry = assertThrows(LaunchOptions.UsageException.class,
                () -> LaunchOptions.parse(List.of("-n", "2", "-p", typo, "-m", "demo/demo.Main")));
        assertTrue(badEntry.getMessage().contains("module path entry '" + typo + "' does not exist"), badEntry::getMessage);
    }

    @Test
    void aPeOnTheModulePathRunsPeMainFromTheLibraryModule(@TempDir Path dir) throws Exception {
        Path mods = demoModule(dir);
        var opts = LaunchOptions.parse(List.of("-n", "2", "-p", mods.toString(), "-m", "demo/demo.Main", "a"));
        List<String> cmd = Oshrun.peCommand(opts, List.of());
        String core = Oshrun.corePath();
        assertTrue(cmd.contains("--enable-native-access=org.shmem4j"), cmd::toString);
        assertFalse(cmd.contains("--enable-native-access=ALL-UNNAMED"), cmd::toString);
        assertEquals(core + File.pathSeparator + mods, cmd.get(cmd.indexOf("--module-path") + 1), "the library first");
        assertEquals("demo,jdk.jfr", cmd.get(cmd.indexOf("--add-modules") + 1));
        assertEquals("demo/demo=org.shmem4j", cmd.get(cmd.indexOf("--add-opens") + 1));
        assertEquals(List.of("-m", "org.shmem4j/org.shmem4j.pe.PeMain", "demo.Main", "a"),
                cmd.subList(cmd.size() - 4, cmd.size()));
        assertFalse(cmd.contains("-cp"), cmd::toString);
        assertNull(PeCommands.aotCache(opts).path(), "the AOT cache is the class path's");

        List<String> onClassPath = Oshrun.peCommand(LaunchOptions.parse(List.of("-n", "2", "-cp", mods.toString(), "demo.Main")), List.of());
        assertTrue(onClassPath.contains("--enable-native-access=ALL-UNNAMED"), onClassPath::toString);
        assertFalse(onClassPath.contains("--module-path"), onClassPath::toString);
    }
}
