package org.shmem4j.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measurements of the same key (the same line but its value) from several files: one entry per
 * key, in the order first seen, with every value, so that tables and figures show the median over
 * runs as bench/peer/compare.py does.
 *
 * @param first  the first measurement of the key (its name, parameters and unit)
 * @param values every value seen, in file order
 * @param text   the value as the program printed it, when there is only one
 */
record Merged(Measurement first, List<Double> values, String text) {
    /** Merges measurements of equal {@link Measurement#key() key}. */
    static List<Merged> merge(List<Measurement> measurements) {
        Map<String, List<Measurement>> byKey = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            byKey.computeIfAbsent(m.key(), k -> new ArrayList<>()).add(m);
        }
        return byKey.values().stream()
                .map(ms -> new Merged(ms.getFirst(), ms.stream().map(Measurement::value).toList(), ms.getFirst().text()))
                .toList();
    }

    /** The median of the values (the mean of the middle two for an even count). */
    double median() {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    }

    /** What a table shows: the printed value when there is one, else the median in compare.py's format. */
    String shown() {
        return values.size() == 1 ? text : format(median());
    }

    /** compare.py's number format: 3 significant digits, no exponent, at least the integer part. */
    static String format(double x) {
        String f = x >= 1000 ? "%.0f" : x >= 10 ? "%.1f" : x >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, f, x);
    }
}
