package org.shmem4j.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.shmem4j.ShmemException;
import org.shmem4j.core.param.SizeParser;

/**
 * Whether the PEs oshrun starts on this machine can fit it, judged before the first one starts:
 * {@code oshrun -n 100000 --oversubscribe} used to start JVMs until the memory ran out. Two limits:
 *
 * <ul>
 * <li><b>Memory.</b> Each PE's JVM is taken to need {@link #PE_JVM_BYTES} (its private resident
 * size once initialized, heap in use included) plus the initial heap it is told to commit ({@code -Xms} or
 * {@code -XX:InitialHeapSize}, the last one of the user's options); together against
 * {@code MemAvailable} of {@code /proc/meminfo}. The maximum heap is not counted: the JVM commits
 * it only as the program grows, and from three PEs on a node oshrun limits the heaps together to
 * half of its memory ({@link PeJvmSettings}).</li>
 * <li><b>Shared memory.</b> Each PE's symmetric heap file (symmetric plus reserved size) against
 * the free space of the shared-memory directory, as every PE checks at init
 * ({@code ShmRegions}) but for all the machine's PEs at once, since they share one file system
 * whatever pseudo-node they are on.</li>
 * </ul>
 */
final class NodeCapacity {
    /**
     * A PE's JVM besides the initial heap it is told to commit: an initialized, idle PE on JDK 25
     * has 26 MiB of private (anonymous) resident memory; its other 24 MiB are file pages (the
     * JDK's, the AOT cache) that the PEs share. Rounded up, the estimate refuses only jobs that
     * certainly cannot fit.
     */
    static final long PE_JVM_BYTES = 32L << 20;

    private NodeCapacity() {}

    /**
     * Why {@code pes} PEs cannot run on this machine, as one line, or null when they fit.
     *
     * @param memAvailable {@code MemAvailable} in bytes, negative when unknown (not checked)
     * @param shmFree      free bytes of {@code shmDir}, negative when unknown (not checked)
     */
    static String refusal(int pes, List<String> jvmOptions, long memAvailable, long shmPerPe, Path shmDir, long shmFree) {
        long perPe = perPeMemory(jvmOptions);
        if (memAvailable >= 0 && multiplyCapped(pes, perPe) > memAvailable) {
            return memoryRefusal(pes, "this machine", perPe, size(memAvailable), Long.toString(memAvailable / perPe));
        }
        if (shmFree >= 0 && multiplyCapped(pes, shmPerPe) > shmFree) {
            return shmRefusal(pes, shmDir, shmPerPe, size(shmFree), Long.toString(shmFree / Math.max(1, shmPerPe)));
        }
        return null;
    }

    /**
     * The same judgement made on another host by the shell that starts a PE there over ssh, before
     * its JVM: {@code pes} PEs (the PE and those still to start on that host) against the host's
     * {@code MemAvailable} and its shared-memory directory's free space. A sh command list that
     * prints the refusal (one line for oshrun: {@link OutputForwarder#LAUNCHER_LINE}) and exits with {@link #REFUSED} when they cannot fit, and does
     * nothing when they fit or the host's figures cannot be read. It costs the start a read of
     * /proc/meminfo and a df, and no round trip.
     */
    static String shellGuard(String host, int pes, List<String> jvmOptions, long shmPerPe, Path shmDir) {
        long perPe = perPeMemory(jvmOptions);
        long perPeKib = Math.max(1, perPe >> 10), shmPerPeKib = Math.max(1, shmPerPe >> 10);
        String where = "host " + host;
        return "m=$(awk '$1==\"MemAvailable:\"{print $2; exit}' /proc/meminfo 2>/dev/null); "
                + "if [ -n \"$m\" ] && [ \"$m\" -lt " + shellKib(pes, perPe) + " ]; then printf '\\001%s\\n' "
                + shellText(memoryRefusal(pes, where, perPe, AVAILABLE, ROOM), "$((m / 1024)) MiB", "$((m / " + perPeKib + "))")
                + " >&2; exit " + REFUSED + "; fi; "
                + "s=$(df -Pk " + ShellWords.quote(shmDir.toString()) + " 2>/dev/null | awk 'NR==2{print $4}'); "
                + "if [ -n \"$s\" ] && [ \"$s\" -lt " + shellKib(pes, shmPerPe) + " ]; then printf '\\001%s\\n' "
                + shellText(shmRefusal(pes, shmDir, shmPerPe, AVAILABLE, ROOM), "$((s / 1024)) MiB", "$((s / " + shmPerPeKib + "))")
                + " >&2; exit " + REFUSED + "; fi; ";
    }

    /** The exit status of a PE's start that {@link #shellGuard} refused (sysexits' EX_CONFIG). */
    static final int REFUSED = 78;

    /** Place holders of {@link #shellGuard}'s messages for what the host's shell computes. */
    private static final String AVAILABLE = "\u0001", ROOM = "\u0002";

    private static String memoryRefusal(int pes, String where, long perPe, String available, String room) {
        return "oshrun: " + pes(pes) + " cannot fit " + where + "'s memory: each PE's JVM needs about " + size(perPe)
                + (perPe > PE_JVM_BYTES ? " (" + size(PE_JVM_BYTES) + " plus its -Xms)" : "") + ", " + available
                + " is available (MemAvailable), room for " + room + " PEs";
    }

    private static String shmRefusal(int pes, Path shmDir, long shmPerPe, String free, String room) {
        return "oshrun: " + pes(pes) + " cannot fit " + shmDir + " (SHMEM_SHM_DIR): each PE's heap file needs "
                + size(shmPerPe) + " (SHMEM_SYMMETRIC_SIZE + SHMEM_RESERVED_SIZE), " + free + " is free, room for " + room + " PEs";
    }

    private static String pes(int n) {
        return n == 1 ? "1 PE" : n + " PEs";
    }

    /** {@code message} as one sh word, its place holders replaced by the double-quoted expansions. */
    private static String shellText(String message, String available, String room) {
        var out = new StringBuilder();
        int from = 0;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if (c == AVAILABLE.charAt(0) || c == ROOM.charAt(0)) {
                out.append(ShellWords.quote(message.substring(from, i))).append('"').append(c == AVAILABLE.charAt(0) ? available : room).append('"');
                from = i + 1;
            }
        }
        return out.append(ShellWords.quote(message.substring(from))).toString();
    }

    /** {@code pes} times {@code bytes} in KiB, rounded up and capped where sh's 64-bit arithmetic still compares it. */
    private static long shellKib(int pes, long bytes) {
        long total = multiplyCapped(pes, bytes);
        return total >= Long.MAX_VALUE >> 1 ? Long.MAX_VALUE >> 11 : (total + 1023) >> 10;
    }

    /** A PE's JVM: {@link #PE_JVM_BYTES} plus the initial heap its options make it commit. */
    private static long perPeMemory(List<String> jvmOptions) {
        return PE_JVM_BYTES + initialHeap(jvmOptions);
    }

    /** {@link #refusal} for this machine: its {@code /proc/meminfo} and {@code shmDir}'s file system. */
    static String refusal(int pes, List<String> jvmOptions, long shmPerPe, Path shmDir) {
        long shmFree;
        try {
            shmFree = Files.isDirectory(shmDir) ? Files.getFileStore(shmDir).getUsableSpace() : -1; // a missing one: the PE says so
        } catch (IOException e) {
            shmFree = -1;
        }
        return refusal(pes, jvmOptions, memAvailable(Path.of("/proc/meminfo")), shmPerPe, shmDir, shmFree);
    }

    /** {@code MemAvailable} of a {@code /proc/meminfo} in bytes, or -1 when it cannot be read. */
    static long memAvailable(Path meminfo) {
        try {
            for (String line : Files.readAllLines(meminfo)) {
                if (line.startsWith("MemAvailable:")) {
                    String[] f = line.substring("MemAvailable:".length()).trim().split("\\s+");
                    return Long.parseLong(f[0]) * (f.length > 1 && f[1].equalsIgnoreCase("kB") ? 1024 : 1);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: not checked
        }
        return -1;
    }

    /** The initial heap the options make a JVM commit (the last setting wins), 0 when none. */
    static long initialHeap(List<String> jvmOptions) {
        long bytes = 0;
        for (String o : jvmOptions) {
            String value = o.startsWith("-Xms") ? o.substring(4) : o.startsWith("-XX:InitialHeapSize=") ? o.substring(20) : null;
            if (value != null) {
                try {
                    bytes = SizeParser.parse(o, value);
                } catch (ShmemException e) {
                    // the JVM rejects it with its own message
                }
            }
        }
        return bytes;
    }

    private static long multiplyCapped(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        return high != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }

    /** 64 MiB, 1.5 GiB, 9.3 TiB. */
    static String size(long bytes) {
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " bytes" : String.format(Locale.ROOT, "%.1f %s", v, units[u]).replace(".0 ", " ");
    }
}
