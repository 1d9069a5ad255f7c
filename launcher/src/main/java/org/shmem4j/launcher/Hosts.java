package org.shmem4j.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.shmem4j.launcher.LaunchOptions.UsageException;

/**
 * The hosts of an ssh job ({@code --hostfile}, {@code --host}) and the placement of PEs on them.
 */
public final class Hosts {
    /**
     * A host and the number of PEs it takes before the job counts as oversubscribed (public: in
     * {@link LaunchOptions.Remote}).
     *
     * @param host  the host name
     * @param slots its slots
     */
    public record Slots(String host, int slots) {}

    private Hosts() {}

    /**
     * Reads a hostfile in Open MPI's format: one host a line, optionally followed by
     * {@code slots=K} (default 1); {@code #} starts a comment; blank lines are skipped. A host
     * named twice gets the sum of its slots.
     */
    static List<Slots> readHostfile(Path file) throws UsageException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UsageException("--hostfile " + file + ": no such file");
        } catch (IOException e) {
            throw new UsageException("--hostfile " + file + ": cannot read it (" + e.getMessage() + ")");
        }
        var hosts = new LinkedHashMap<String, Integer>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = "--hostfile " + file + " line " + (i + 1);
            String[] words = line.split("\\s+");
            int slots = 1;
            for (int w = 1; w < words.length; w++) {
                if (!words[w].startsWith("slots=")) {
                    throw new UsageException(where + ": unknown '" + words[w] + "' (expected 'HOST [slots=K]')");
                }
                slots = positive(words[w].substring("slots=".length()), where + ": slots");
            }
            add(hosts, hostName(words[0], where), slots);
        }
        if (hosts.isEmpty()) {
            throw new UsageException("--hostfile " + file + " names no host");
        }
        return list(hosts);
    }

    /** Parses {@code --host h1[:K],h2[:K],...} (K defaults to 1). */
    static List<Slots> parseHostList(String spec) throws UsageException {
        var hosts = new LinkedHashMap<String, Integer>();
        for (String item : spec.split(",", -1)) {
            String where = "--host " + spec;
            int colon = item.lastIndexOf(':');
            String name = colon < 0 ? item : item.substring(0, colon);
            int slots = colon < 0 ? 1 : positive(item.substring(colon + 1), where + ": the slots of '" + name + "'");
            add(hosts, hostName(name, where), slots);
        }
        return list(hosts);
    }

    /**
     * The host of every rank. Each host first gets up to its slots, in the order given; with more
     * PEs than slots in total, further rounds add up to each host's slots again. Block placement
     * ({@code byNode} false, the default) gives each host consecutive ranks; by node, ranks go
     * round-robin over the hosts that still have room.
     */
    static String[] place(List<Slots> hosts, int pes, boolean byNode) {
        int[] count = new int[hosts.size()];
        for (int placed = 0; placed < pes;) {
            for (int h = 0; h < hosts.size() && placed < pes; h++) {
                int more = Math.min(hosts.get(h).slots(), pes - placed);
                count[h] += more;
                placed += more;
            }
        }
        String[] hostOf = new String[pes];
        int rank = 0;
        if (byNode) {
            int[] given = new int[hosts.size()];
            while (rank < pes) {
                for (int h = 0; h < hosts.size(); h++) {
                    if (given[h] < count[h]) {
                        given[h]++;
                        hostOf[rank++] = hosts.get(h).host();
                    }
                }
            }
        } else {
            for (int h = 0; h < hosts.size(); h++) {
                for (int i = 0; i < count[h]; i++) {
                    hostOf[rank++] = hosts.get(h).host();
                }
            }
        }
        return hostOf;
    }

    static int totalSlots(List<Slots> hosts) {
        return hosts.stream().mapToInt(Slots::slots).sum();
    }

    private static String hostName(String name, String where) throws UsageException {
        // A name that ssh could take as an option, or that a shell would split, is a mistake.
        if (name.isEmpty() || name.startsWith("-") || !name.matches("[A-Za-z0-9._@-]+")) {
            throw new UsageException(where + ": '" + name + "' is not a host name");
        }
        return name;
    }

    private static int positive(String v, String what) throws UsageException {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(what + " must be a number of at least 1, not '" + v + "'");
    }

    private static void add(Map<String, Integer> hosts, String host, int slots) {
        hosts.merge(host, slots, Integer::sum);
    }

    private static List<Slots> list(Map<String, Integer> hosts) {
        var out = new ArrayList<Slots>(hosts.size());
        hosts.forEach((h, s) -> out.add(new Slots(h, s)));
        return out;
    }
}
