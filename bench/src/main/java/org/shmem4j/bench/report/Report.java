package org.shmem4j.bench.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.shmem4j.bench.report.Figures.Figure;
import org.shmem4j.bench.report.ResultFile.Side;

/**
 * Turns benchmark results (the lines of bench/run.sh and bench/peer/run.sh) into what a reader
 * wants (used by bench/run.sh {@code --format} and bench/plot.sh):
 * <pre>
 * Report table [FILE ...]       OSU-style tables, one per benchmark ('# Size  Latency (us)')
 * Report csv [FILE ...]         CSV: benchmark, a column per parameter, unit, value
 * Report plot -o DIR FILE ...   a gnuplot script DIR/FIGURE.gp per figure the files have data for
 * </pre>
 * Without FILE, table and csv read standard input and echo its comments and other lines at once
 * (a live run shows its progress), the table or CSV following at the end. With several files a
 * table cell is the median over them.
 */
public final class Report {
    private static final String USAGE = """
            usage: org.shmem4j.bench.report.Report table|csv [FILE ...]
                   org.shmem4j.bench.report.Report plot -o DIR FILE ...""";

    private Report() {
    }

    public static void main(String[] args) {
        System.exit(run(List.of(args), System.in, System.out, System.err));
    }

    /** Runs the command of {@code args}; returns the exit status (2: usage). */
    static int run(List<String> args, java.io.InputStream stdin, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        List<String> rest = args.subList(1, args.size());
        try {
            return switch (args.getFirst()) {
                case "table" -> {
                    out.print(Tables.osu(read(rest, stdin, out)));
                    yield 0;
                }
                case "csv" -> {
                    out.print(Tables.csv(read(rest, stdin, out)));
                    yield 0;
                }
                case "plot" -> plot(rest, out, err);
                default -> {
                    err.println("Report: unknown command '" + args.getFirst() + "'\n" + USAGE);
                    yield 2;
                }
            };
        } catch (UncheckedIOException e) {
            err.println("Report: " + e.getMessage() + ": " + e.getCause().getMessage());
            return 1;
        }
    }

    /** The files (standard input when none), their comments and other lines echoed to {@code out}. */
    private static List<ResultFile> read(List<String> files, java.io.InputStream stdin, PrintStream out) {
        Consumer<String> echo = line -> {
            out.println(line);
            out.flush();
        };
        List<ResultFile> results = new ArrayList<>();
        if (files.isEmpty()) {
            results.add(ResultFile.read("-", new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8)), echo));
        }
        for (String f : files) {
            try (BufferedReader in = Files.newBufferedReader(Path.of(f), StandardCharsets.UTF_8)) {
                results.add(ResultFile.read(f, in, echo));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + f, e);
            }
        }
        return results;
    }

    /** {@code plot -o DIR FILE ...}: writes the scripts, prints their paths. */
    private static int plot(List<String> args, PrintStream out, PrintStream err) {
        if (args.size() < 3 || !args.getFirst().equals("-o")) {
            err.println(USAGE);
            return 2;
        }
        Path dir = Path.of(args.get(1));
        List<ResultFile> files = new ArrayList<>();
        for (String f : args.subList(2, args.size())) {
            ResultFile r = ResultFile.read(Path.of(f));
            if (r.side() == Side.UNKNOWN) {
                err.println("plot: skipping " + f + ": its first line is neither bench/run.sh's '# shmem4j bench results'"
                        + " nor bench/peer/run.sh's '# peer results'");
            } else {
                files.add(r);
            }
        }
        int written = 0;
        try {
            Files.createDirectories(dir);
            for (Figure figure : Figures.ALL) {
                String script = Figures.script(figure, files);
                if (script == null) {
                    err.println("plot: no data for " + figure.name() + " (" + figure.title() + ")");
                    continue;
                }
                Path gp = dir.resolve(figure.name() + ".gp");
                Files.writeString(gp, script, StandardCharsets.UTF_8);
                out.println(gp);
                written++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write into " + dir, e);
        }
        if (written == 0) {
            err.println("plot: the files have no data for any figure");
            return 1;
        }
        return 0;
    }
}
