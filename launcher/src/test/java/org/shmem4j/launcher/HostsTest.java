package org.shmem4j.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Hostfiles, {@code --host} lists, placement, and the shell words of {@code --ssh} and remote commands. */
@Timeout(10)
class HostsTest {
    @Test
    void hostfileInOpenMpiFormat(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("hosts"), """
                # the cluster
                node1 slots=2

                node2   # one slot
                node1 slots=1
                """);
        assertEquals(List.of(new Hosts.Slots("node1", 3), new Hosts.Slots("node2", 1)), Hosts.readHostfile(f));
    }

    @Test
    void badHostfilesNameTheLine(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("hosts"), "node1\nnode2 slots=0\n");
        var e = assertThrows(LaunchOptions.UsageException.class, () -> Hosts.readHostfile(f));
        assertTrue(e.getMessage().contains("line 2") && e.getMessage().contains("'0'"), e.getMessage());
        Path g = Files.writeString(dir.resolve("g"), "node1 cpus=4\n");
        assertTrue(assertThrows(LaunchOptions.UsageException.class, () -> Hosts.readHostfile(g)).getMessage()
                .contains("'cpus=4'"));
        Path empty = Files.writeString(dir.resolve("e"), "# nothing\n");
        assertThrows(LaunchOptions.UsageException.class, () -> Hosts.readHostfile(empty));
        assertThrows(LaunchOptions.UsageException.class, () -> Hosts.readHostfile(dir.resolve("missing")));
    }

    @Test
    void hostLists() throws Exception {
        assertEquals(List.of(new Hosts.Slots("a", 2), new Hosts.Slots("b", 1)), Hosts.parseHostList("a:2,b"));
        for (String bad : List.of("a:0", "a:x", "a,,b", "-oProxyCommand=x", "a b")) {
            assertThrows(LaunchOptions.UsageException.class, () -> Hosts.parseHostList(bad), bad);
        }
    }

    @Test
    void blockAndCyclicPlacement() {
        var hosts = List.of(new Hosts.Slots("a", 2), new Hosts.Slots("b", 2), new Hosts.Slots("c", 2));
        assertArrayEquals(new String[] {"a", "a", "b", "b", "c", "c"}, Hosts.place(hosts, 6, false));
        assertArrayEquals(new String[] {"a", "b", "c", "a", "b", "c"}, Hosts.place(hosts, 6, true));
        assertArrayEquals(new String[] {"a", "a", "b"}, Hosts.place(hosts, 3, false));
        assertArrayEquals(new String[] {"a", "b", "a"}, Hosts.place(hosts, 3, true));
        // more PEs than slots: further rounds by the same slots
        assertArrayEquals(new String[] {"a", "a", "a", "a", "b", "b", "c"},
                Hosts.place(List.of(new Hosts.Slots("a", 2), new Hosts.Slots("b", 1), new Hosts.Slots("c", 1)), 7, false));
    }

    @Test
    void shellWords() throws Exception {
        assertEquals(List.of("ssh", "-F", "/a b/cfg", "-o", "X=\"y\""), ShellWords.split("ssh -F '/a b/cfg' -o X=\\\"y\\\""));
        assertEquals(List.of("a b", "c"), ShellWords.split("  \"a b\"  c "));
        assertThrows(LaunchOptions.UsageException.class, () -> ShellWords.split("ssh 'x"));
        List<String> words = List.of("java", "-Dx=a b", "it's", "$HOME", "");
        assertEquals(words, ShellWords.split(ShellWords.join(words)));
    }

    @Test
    void firstNodeOfASlurmNodeList() {
        assertEquals("n01", SlurmStep.firstNode("n[01-04,07],m3"));
        assertEquals("tb-h0", SlurmStep.firstNode("tb-h[0-1]"));
        assertEquals("a", SlurmStep.firstNode("a,b[1-2]"));
        assertEquals("solo", SlurmStep.firstNode("solo"));
    }
}
