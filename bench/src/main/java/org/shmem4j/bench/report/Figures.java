package org.shmem4j.bench.report;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.shmem4j.bench.report.ResultFile.Side;

/**
 * The figures bench/plot.sh draws, each as a self-contained gnuplot script (its data inline) that
 * writes a PNG: latency and bandwidth by size (Java against the C peer), message rate by threads,
 * the reduce algorithms by size (the teams paper's figure 4) and team creation time by PEs.
 */
final class Figures {
    /** How an axis is scaled and labelled. */
    enum Axis {
        /** Linear, a tic per integer (PEs, threads). */
        COUNT,
        /** Logarithmic base 2, tics in bytes with binary prefixes (8 B, 1 KiB, ...). */
        BYTES,
        /** Logarithmic base 2, tics with binary prefixes (1, 4, ..., 1 Ki). */
        POWERS_OF_TWO,
        /** Logarithmic base 10. */
        LOG,
        /** Linear from 0. */
        LINEAR
    }

    /**
     * One figure.
     *
     * @param name    file name without extension ({@code latency} gives latency.gp and latency.png)
     * @param title   first line of the title
     * @param xKey    the parameter on the x axis
     * @param xLabel  x axis label
     * @param yLabel  y axis label
     * @param x       x axis scale
     * @param y       y axis scale
     * @param selects the measurements the figure shows (each distinct other parameter set is a line)
     */
    record Figure(String name, String title, String xKey, String xLabel, String yLabel, Axis x, Axis y,
            Predicate<Measurement> selects) {
        /** Whether the figure shows {@code m}: selected, and with a value for the x axis. */
        boolean shows(Measurement m) {
            return selects.test(m) && m.params().containsKey(xKey);
        }
    }

    /** The figures, in the order bench/plot.sh lists them. */
    static final List<Figure> ALL = List.of(
            new Figure("latency", "Put and get latency by message size", "bytes", "message size", "latency (us)",
                    Axis.BYTES, Axis.LOG, named(Set.of("put_lat", "get_lat"), "us")),
            new Figure("bandwidth", "Put and get bandwidth by message size", "bytes", "message size", "bandwidth (MB/s)",
                    Axis.BYTES, Axis.LOG, named(Set.of("put_bw", "get_bw"), "MBps")),
            new Figure("msgrate_threads", "8-byte putmem_nbi message rate of PE 0 to PE 1 by threads", "threads", "threads of PE 0",
                    "messages (millions/s)", Axis.COUNT, Axis.LINEAR,
                    named(Set.of("msgrate"), "Mmsgs").and(m -> m.params().containsKey("threads"))),
            new Figure("reduce_algo", "Float sum reduce on the world team by size, per algorithm", "elems",
                    "elements (float) per PE", "latency (us)", Axis.POWERS_OF_TWO, Axis.LOG,
                    named(Set.of("reduce"), "us").and(m -> m.params().containsKey("algo") && !m.params().containsKey("mode"))),
            new Figure("reduce_algo_hosts", "Two-level float sum reduce (host teams, leaders) by size, per algorithm", "elems",
                    "elements (float) per PE", "latency (us)", Axis.POWERS_OF_TWO, Axis.LOG,
                    named(Set.of("reduce"), "us").and(m -> "host_leaders".equals(m.params().get("mode")))),
            new Figure("team_create", "Team creation time by PEs (mean per shmem_team_split_strided)", "pes", "PEs",
                    "time per split (us)", Axis.COUNT, Axis.LOG, named(Set.of("team_create"), "us")));

    private Figures() {
    }

    private static Predicate<Measurement> named(Set<String> names, String unit) {
        return m -> names.contains(m.name()) && m.unit().equals(unit);
    }

    /** One line of a figure: its label without the side, its side, its points (x to median y). */
    record Series(String label, Side side, TreeMap<Double, Double> points) {
    }

    /**
     * The lines of {@code figure} from {@code files}: one per side and distinct set of the other
     * parameters, each point the median over the files of that side. Parameters equal on every
     * line are left out of the labels (the title names them), and so is the name when all lines
     * share it.
     */
    static List<Series> series(Figure figure, List<ResultFile> files) {
        Map<Side, List<Measurement>> bySide = new LinkedHashMap<>();
        for (Side side : List.of(Side.JAVA, Side.C)) {
            List<Measurement> ms = files.stream().filter(f -> f.side() == side).flatMap(f -> f.measurements().stream())
                    .filter(figure::shows).toList();
            if (!ms.isEmpty()) {
                bySide.put(side, ms);
            }
        }
        List<Measurement> all = bySide.values().stream().flatMap(List::stream).toList();
        Map<String, String> common = common(all, figure.xKey());
        boolean oneName = all.stream().map(Measurement::name).distinct().count() == 1;
        List<Series> out = new ArrayList<>();
        bySide.forEach((side, ms) -> {
            Map<String, TreeMap<Double, Double>> lines = new LinkedHashMap<>();
            for (Merged m : Merged.merge(ms)) {
                Measurement f = m.first();
                String label = f.params().entrySet().stream()
                        .filter(e -> !e.getKey().equals(figure.xKey()) && !common.containsKey(e.getKey()))
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining(" ", oneName ? "" : f.name() + " ", "")).strip();
                lines.computeIfAbsent(label.isEmpty() ? f.name() : label, k -> new TreeMap<>())
                        .put(Double.parseDouble(f.params().get(figure.xKey())), m.median());
            }
            lines.forEach((label, points) -> out.add(new Series(label, side, points)));
        });
        return out;
    }

    /** The parameters (but {@code xKey}) that every measurement has, with one value. */
    static Map<String, String> common(List<Measurement> ms, String xKey) {
        Map<String, String> common = new LinkedHashMap<>();
        if (ms.isEmpty()) {
            return common;
        }
        ms.getFirst().params().forEach((k, v) -> {
            if (!k.equals(xKey) && ms.stream().allMatch(m -> v.equals(m.params().get(k)))) {
                common.put(k, v);
            }
        });
        return common;
    }

    /**
     * The gnuplot script drawing {@code figure} from {@code files} into {@code <name>.png} in the
     * script's working directory; null when the files have no measurement for it.
     */
    static String script(Figure figure, List<ResultFile> files) {
        List<Series> lines = series(figure, files);
        if (lines.isEmpty()) {
            return null;
        }
        List<Measurement> shown = files.stream().flatMap(f -> f.measurements().stream()).filter(figure::shows).toList();
        boolean bothSides = lines.stream().map(Series::side).distinct().count() > 1;
        List<String> subtitle = new ArrayList<>();
        Map<String, String> common = common(shown, figure.xKey());
        if (!common.isEmpty()) {
            subtitle.add(common.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")));
        }
        subtitle.add(bothSides ? "solid: Java (shmem4j), dashed: C peer (Open MPI OSHMEM)" : sidesOf(lines));
        Map<Side, Long> perSide = files.stream().filter(f -> f.measurements().stream().anyMatch(figure::shows))
                .collect(Collectors.groupingBy(ResultFile::side, () -> new EnumMap<>(Side.class), Collectors.counting()));
        if (perSide.values().stream().anyMatch(n -> n > 1)) {
            subtitle.add(perSide.entrySet().stream().map(e -> e.getValue() + " " + e.getKey().label)
                    .collect(Collectors.joining(" and ", "medians over ", " files")));
        }

        StringBuilder g = new StringBuilder();
        g.append("# ").append(figure.name()).append(".gp, written by bench/plot.sh from ")
                .append(files.stream().map(ResultFile::source).collect(Collectors.joining(" "))).append('\n');
        g.append("# gnuplot ").append(figure.name()).append(".gp draws ").append(figure.name()).append(".png\n");
        g.append("set terminal pngcairo size 960,600 noenhanced font \"sans,11\"\n");
        g.append("set output ").append(quote(figure.name() + ".png")).append('\n');
        g.append("set title ").append(quote(figure.title() + "\n" + String.join(", ", subtitle))).append('\n');
        g.append("set xlabel ").append(quote(figure.xLabel())).append('\n');
        g.append("set ylabel ").append(quote(figure.yLabel())).append('\n');
        g.append("set grid\nset key outside right top\n");
        g.append(axis("x", figure.x())).append(axis("y", figure.y()));
        g.append(sizeTics(figure.x(), lines));
        // one x (or y) value would leave gnuplot an empty range to widen, with a warning
        if (figure.x() == Axis.COUNT) {
            g.append(pointRange("x", figure.x(), lines.stream().flatMap(l -> l.points().keySet().stream()).toList()));
        }
        g.append(pointRange("y", figure.y(), lines.stream().flatMap(l -> l.points().values().stream()).toList()));
        for (int i = 0; i < lines.size(); i++) {
            g.append("$s").append(i).append(" << EOD\n");
            lines.get(i).points().forEach((x, y) -> g.append(number(x)).append(' ').append(number(y)).append('\n'));
            g.append("EOD\n");
        }
        List<String> colours = lines.stream().map(Series::label).distinct().toList();
        g.append("plot ");
        for (int i = 0; i < lines.size(); i++) {
            Series s = lines.get(i);
            g.append(i == 0 ? "" : ", \\\n     ").append("$s").append(i).append(" using 1:2 with linespoints")
                    .append(" lc ").append(colours.indexOf(s.label()) + 1)
                    .append(" dt ").append(s.side() == Side.C ? 2 : 1)
                    .append(" pt ").append(s.side() == Side.C ? 6 : 7).append(" lw 1.5 title ")
                    .append(quote(bothSides ? s.side().label + " " + s.label() : s.label()));
        }
        return g.append('\n').toString();
    }

    private static String sidesOf(List<Series> lines) {
        return lines.getFirst().side() == Side.C ? "C peer (Open MPI OSHMEM)" : "Java (shmem4j)";
    }

    private static String axis(String a, Axis axis) {
        return switch (axis) {
            case COUNT -> "set " + a + "tics 1\nset offsets 0.5, 0.5, 0, 0\n";
            case BYTES, POWERS_OF_TWO -> "set logscale " + a + " 2\n";
            case LOG -> "set logscale " + a + " 10\n";
            case LINEAR -> "set " + a + "range [0:*]\n";
        };
    }

    /** Tics at the measured sizes, labelled with binary prefixes (8 B, 1 KiB; 1, 4, 1 Ki). */
    private static String sizeTics(Axis axis, List<Series> lines) {
        if (axis != Axis.BYTES && axis != Axis.POWERS_OF_TWO) {
            return "";
        }
        String unit = axis == Axis.BYTES ? "B" : "";
        List<Double> xs = lines.stream().flatMap(l -> l.points().keySet().stream()).distinct().sorted().toList();
        // half a step of 2 beyond the ends, so the end points and their tics are not on the border
        return "set xrange [" + xs.getFirst() / Math.sqrt(2) + ":" + xs.getLast() * Math.sqrt(2) + "]\n"
                + xs.stream().map(x -> quote(binary(x.longValue(), unit)) + " " + number(x))
                        .collect(Collectors.joining(", ", "set xtics rotate by 30 right (", ")\n"));
    }

    /** {@code n} with a binary prefix when it is a multiple of 1024 ({@code 4 KiB}, {@code 1 Mi}). */
    static String binary(long n, String unit) {
        String[] prefixes = {"", "Ki", "Mi", "Gi", "Ti"};
        int p = 0;
        while (p < prefixes.length - 1 && n >= 1024 && n % 1024 == 0) {
            n /= 1024;
            p++;
        }
        String suffix = prefixes[p] + unit;
        return suffix.isEmpty() ? Long.toString(n) : n + " " + suffix;
    }

    /** A range around the one value of {@code values} when they have only one, else nothing. */
    private static String pointRange(String a, Axis axis, List<Double> values) {
        double v = values.getFirst();
        if (values.stream().anyMatch(w -> w != v)) {
            return "";
        }
        boolean log = axis == Axis.BYTES || axis == Axis.POWERS_OF_TWO || axis == Axis.LOG;
        double lo = log || axis == Axis.LINEAR ? v / 2 : v - 1;
        double hi = log || axis == Axis.LINEAR ? v * 2 : v + 1;
        return "set " + a + "range [" + number(lo) + ":" + number(hi) + "]\n";
    }

    /** A number as gnuplot reads it (no exponent for the integers of sizes and counts). */
    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /** A gnuplot double-quoted string. */
    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
