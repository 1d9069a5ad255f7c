package org.shmem4j.bootstrap;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Sets of PE ranks as people read them, for reports of jobs of any size: {@code PE 3}, or
 * {@code PEs 0-3, 7, 9-12 (9)} (the ranks as ranges, then the count), and per-PE messages
 * grouped so that a message many PEs share is written once with its PEs.
 */
public final class PeRanges {
    private PeRanges() {
    }

    /** {@code PE r} for one rank, else {@code PEs} with the ranks as ranges and their count; ranks ascending and distinct. */
    public static String of(Collection<Integer> ranks) {
        if (ranks.isEmpty()) {
            return "no PE";
        }
        if (ranks.size() == 1) {
            return "PE " + ranks.iterator().next();
        }
        StringBuilder s = new StringBuilder("PEs ");
        int start = -1;
        int last = -1;
        for (int r : ranks) {
            if (start >= 0 && r == last + 1) {
                last = r;
                continue;
            }
            if (start >= 0) {
                range(s, start, last).append(", ");
            }
            start = r;
            last = r;
        }
        if (start >= 0) {
            range(s, start, last);
        }
        return s.append(" (").append(ranks.size()).append(')').toString();
    }

    private static StringBuilder range(StringBuilder s, int first, int last) {
        s.append(first);
        return first == last ? s : s.append(first + 1 == last ? ", " : "-").append(last);
    }

    /**
     * The ranks of {@code byPe} grouped by equal value, each group's ranks ascending, the groups
     * in the order of their lowest rank.
     */
    public static <T> Map<T, List<Integer>> group(SortedMap<Integer, T> byPe) {
        Map<T, List<Integer>> groups = new LinkedHashMap<>();
        byPe.forEach((pe, value) -> groups.computeIfAbsent(value, v -> new ArrayList<>()).add(pe));
        return groups;
    }

    /** One line per distinct message of {@code messageByPe}: {@code PEs 0-3 (4): message}, as {@link #group} orders them. */
    public static List<String> lines(SortedMap<Integer, String> messageByPe) {
        List<String> lines = new ArrayList<>();
        group(messageByPe).forEach((message, pes) -> lines.add(of(pes) + ": " + message));
        return lines;
    }
}
