package org.shmem4j.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.SequencedSet;
import java.util.stream.Collectors;

/**
 * Results as OSU micro-benchmark style tables (one per benchmark, {@code # Size  Latency (us)})
 * and as CSV.
 */
final class Tables {
    /**
     * Parameters that are a table's first column when present, as the message size is in OSU's
     * tables; of those a measurement has, the one with the most distinct values wins (ties: this order).
     */
    static final List<String> X_KEYS = List.of("bytes", "elems", "threads", "pes");

    private Tables() {
    }

    /** The column heading of a parameter. */
    static String heading(String key) {
        return switch (key) {
            case "bytes" -> "Size";
            case "elems" -> "Elements";
            case "threads" -> "Threads";
            case "pes" -> "PEs";
            default -> key;
        };
    }

    /** The column heading of a value in {@code unit}. */
    static String valueHeading(String unit) {
        return switch (unit) {
            case "ns", "us", "ms", "s" -> "Latency (" + unit + ")";
            case "MBps" -> "Bandwidth (MB/s)";
            case "Mmsgs" -> "Messages (M/s)";
            case "Mops" -> "Operations (M/s)";
            case "Mups" -> "Updates (M/s)";
            case "Mgets" -> "Gets (M/s)";
            default -> unit;
        };
    }

    /**
     * OSU-style tables: measurements of one name, unit and set of parameters form a table whose
     * first column is their size-like parameter ({@link #X_KEYS}), one table per value of their other
     * parameters (named in the title); measurements without a size-like parameter that varies get
     * one table per name, a column per parameter. Several files: each cell is the median over them.
     */
    static String osu(List<ResultFile> files) {
        List<Merged> all = Merged.merge(files.stream().flatMap(f -> f.measurements().stream()).toList());
        Map<String, List<Merged>> shapes = new LinkedHashMap<>();
        for (Merged m : all) {
            Measurement f = m.first();
            shapes.computeIfAbsent(f.name() + " " + f.params().keySet() + " " + f.unit(), k -> new ArrayList<>()).add(m);
        }
        StringBuilder out = new StringBuilder();
        if (files.size() > 1) {
            out.append("# medians over ").append(files.size()).append(" files\n\n");
        }
        for (List<Merged> shape : shapes.values()) {
            String x = xKey(shape);
            if (x == null) {
                Measurement head = shape.getFirst().first();
                render(out, head.name(), List.copyOf(head.params().keySet()), shape);
                continue;
            }
            Map<String, List<Merged>> tables = new LinkedHashMap<>();
            for (Merged m : shape) {
                tables.computeIfAbsent(title(m.first(), x), k -> new ArrayList<>()).add(m);
            }
            tables.forEach((title, table) -> render(out, title, List.of(x), table));
        }
        return out.toString();
    }

    /**
     * The size-like parameter of measurements of one shape: the one with most values; null if
     * they have none, or none with two values or more (one table then holds them all).
     */
    static String xKey(List<Merged> shape) {
        SequencedMap<String, String> params = shape.getFirst().first().params();
        Comparator<String> byValues = Comparator.comparingLong(k -> values(shape, k));
        return X_KEYS.stream().filter(params::containsKey).filter(k -> values(shape, k) > 1)
                .max(byValues.thenComparing(k -> -X_KEYS.indexOf(k)))
                .orElse(null);
    }

    private static long values(List<Merged> shape, String key) {
        return shape.stream().map(m -> m.first().params().get(key)).distinct().count();
    }

    /** A table's title: the name and every parameter but the columns' {@code x}. */
    private static String title(Measurement m, String x) {
        StringBuilder t = new StringBuilder(m.name());
        m.params().forEach((k, v) -> {
            if (!k.equals(x)) {
                t.append(' ').append(k).append('=').append(v);
            }
        });
        return t.toString();
    }

    /**
     * Appends one table titled {@code title}: a column per parameter of {@code columns}, left
     * aligned, then the value, right aligned; the heading line starts with '#' as OSU's does.
     */
    private static void render(StringBuilder out, String title, List<String> columns, List<Merged> rows) {
        List<String> headings = new ArrayList<>(columns.stream().map(Tables::heading).toList());
        headings.add(valueHeading(rows.getFirst().first().unit()));
        headings.set(0, "# " + headings.getFirst());
        List<List<String>> cells = rows.stream().map(m -> {
            List<String> row = new ArrayList<>(columns.stream().map(m.first().params()::get).toList());
            row.add(m.shown());
            return row;
        }).toList();
        int last = columns.size();
        int[] widths = new int[last + 1];
        for (int c = 0; c <= last; c++) {
            widths[c] = headings.get(c).length();
            for (List<String> row : cells) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        out.append("# ").append(title).append('\n');
        for (List<String> line : concat(headings, cells)) {
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < last; c++) {
                b.append(line.get(c)).append(" ".repeat(widths[c] - line.get(c).length() + 2));
            }
            String value = line.get(last);
            out.append(b).append(" ".repeat(widths[last] - value.length())).append(value).append('\n');
        }
        out.append('\n');
    }

    private static List<List<String>> concat(List<String> first, List<List<String>> rest) {
        List<List<String>> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }

    /**
     * CSV, one row per measurement of every file, as printed: {@code benchmark}, a column per
     * parameter any measurement has (empty where it has none), {@code unit}, {@code value}; with
     * several files a first column {@code source} names the file.
     */
    static String csv(List<ResultFile> files) {
        SequencedSet<String> keys = new LinkedHashSet<>();
        files.forEach(f -> f.measurements().forEach(m -> keys.addAll(m.params().keySet())));
        boolean sourced = files.size() > 1;
        StringBuilder out = new StringBuilder();
        List<String> header = new ArrayList<>();
        if (sourced) {
            header.add("source");
        }
        header.add("benchmark");
        header.addAll(keys);
        header.add("unit");
        header.add("value");
        out.append(csvRow(header));
        for (ResultFile f : files) {
            for (Measurement m : f.measurements()) {
                List<String> row = new ArrayList<>();
                if (sourced) {
                    row.add(f.source());
                }
                row.add(m.name());
                keys.forEach(k -> row.add(m.params().getOrDefault(k, "")));
                row.add(m.unit());
                row.add(m.text());
                out.append(csvRow(row));
            }
        }
        return out.toString();
    }

    private static String csvRow(List<String> cells) {
        return cells.stream().map(Tables::csvCell).collect(Collectors.joining(",")) + "\n";
    }

    /** RFC 4180 quoting, for the cells that need it. */
    private static String csvCell(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
