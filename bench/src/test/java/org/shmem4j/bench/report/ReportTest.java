package org.shmem4j.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.bench.report.Figures.Series;
import org.shmem4j.bench.report.ResultFile.Side;

/**
 * Feeds saved results files (test resources in the format of bench/run.sh and bench/peer/run.sh)
 * through the formatter and the figure writer of bench/run.sh {@code --format} and bench/plot.sh.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReportTest {
    private static Path resource(String name) {
        try {
            return Path.of(ReportTest.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final Path JAVA = resource("java-np2.txt");
    private static final Path C = resource("c-np2.txt");
    private static final Path JAVA4 = resource("java-np4.txt");

    private record Output(int status, String out, String err) {
    }

    private static Output report(InputStream stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Report.run(List.of(args), stdin, o, e);
        }
        return new Output(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Output report(String... args) {
        return report(InputStream.nullInputStream(), args);
    }

    /** Asserts that {@code text} has the block of {@code lines}: its first line, then the others up to a blank line. */
    private static void assertBlock(String text, String... lines) {
        assertEquals(List.of(lines), block(text, lines[0]));
    }

    /** The lines of the block of {@code text} that starts with the line {@code title}, up to a blank line. */
    private static List<String> block(String text, String title) {
        List<String> lines = text.lines().toList();
        int i = lines.indexOf(title);
        assertTrue(i >= 0, "no block '" + title + "' in\n" + text);
        List<String> b = new ArrayList<>();
        for (int j = i; j < lines.size() && !lines.get(j).isEmpty(); j++) {
            b.add(lines.get(j));
        }
        return b;
    }

    @Test
    void parsesResultLinesAndRejectsEverythingElse() {
        Measurement m = Measurement.parse("reduce op=float_sum algo=tree elems=4 pes=2 us=1.000").orElseThrow();
        assertEquals("reduce", m.name());
        assertEquals(List.of("op", "algo", "elems", "pes"), List.copyOf(m.params().keySet()));
        assertEquals("us", m.unit());
        assertEquals("1.000", m.text());
        assertEquals(1.0, m.value());
        assertEquals("reduce op=float_sum algo=tree elems=4 pes=2 us", m.key());
        assertEquals("MBps", Measurement.parse("put_bw bytes=4096 path=ucx MBps=1633").orElseThrow().unit());
        for (String bad : List.of("", "   ", "# put_lat bytes=8 us=0.1", "put_lat", "put_lat bytes=8 us=fast",
                "put_lat stray bytes=8 us=0.1", "bytes=8 us=0.1", "WARNING: something")) {
            assertTrue(Measurement.parse(bad).isEmpty(), "'" + bad + "' parsed");
        }
    }

    @Test
    void tellsTheSidesByTheirHeaders() {
        assertEquals(Side.JAVA, ResultFile.read(JAVA).side());
        assertEquals(Side.C, ResultFile.read(C).side());
        assertEquals(28, ResultFile.read(JAVA).measurements().size());
    }

    @Test
    void tableHasOneOsuStyleTablePerBenchmark() {
        Output o = report("table", JAVA.toString());
        assertEquals(0, o.status(), o.err());
        assertBlock(o.out(),
                "# put_lat",
                "# Size   Latency (us)",
                "8               0.150",
                "1024            0.210",
                "1048576        25.400");
        assertBlock(o.out(),
                "# put_bw",
                "# Size  Bandwidth (MB/s)",
                "4096               60000",
                "65536              90000");
        // no size-like parameter: a column per parameter
        assertBlock(o.out(),
                "# msgrate",
                "# op        mode  Messages (M/s)",
                "putmem_nbi  uni           80.000",
                "putmem_nbi  bi           150.000");
        // the parameter with the most values is the first column, the others name the table
        assertBlock(o.out(),
                "# msgrate op=putmem_nbi ctx=shared",
                "# Threads  Messages (M/s)",
                "1                  60.000",
                "2                  40.000");
        assertBlock(o.out(),
                "# bw op=putmem_nbi bytes=1048576 ctx=private",
                "# Threads  Bandwidth (MB/s)",
                "1                     20000",
                "2                     21000");
        assertBlock(o.out(),
                "# reduce op=float_sum algo=tree pes=2",
                "# Elements  Latency (us)",
                "1                  0.900",
                "4                  1.000");
        // a size-like parameter with one value is a column like the others
        assertBlock(o.out(),
                "# team_create",
                "# op     teams  PEs  Latency (us)",
                "dup      64     2           9.500",
                "halving  64     2           8.700");
        // comments are kept, before the tables
        assertTrue(o.out().startsWith("# shmem4j bench results, 2026-11-26T12:00:00Z, commit 0000000\n"), o.out());
        assertTrue(o.out().indexOf("# put_lat rc=0") < o.out().indexOf("# put_lat\n"), o.out());
    }

    @Test
    void tableOfSeveralFilesShowsMedians() {
        Output o = report("table", JAVA.toString(), C.toString(), JAVA4.toString());
        assertEquals(0, o.status(), o.err());
        assertTrue(o.out().contains("# medians over 3 files\n"), o.out());
        // 8 bytes: 0.150, 0.122, 0.250 -> 0.150; 1 KiB: 0.210, 0.135 -> 0.1725; 1 MiB: 25.4, 21.3 -> 23.35
        assertBlock(o.out(),
                "# put_lat",
                "# Size   Latency (us)",
                "8               0.150",
                "1024            0.173",
                "1048576          23.4");
        assertBlock(o.out(),
                "# team_create op=halving teams=64",
                "# PEs  Latency (us)",
                "2             8.700",
                "4            25.000");
    }

    /** Whole files of a real run (both sides, every program): every measurement is one table row, once. */
    @ParameterizedTest
    @ValueSource(strings = {"java-full.txt", "c-full.txt"})
    void everyMeasurementOfARealRunIsOneTableRow(String name) {
        Path file = resource(name);
        List<Measurement> ms = ResultFile.read(file).measurements();
        assertTrue(ms.size() > 60, name + " has " + ms.size() + " measurements");
        String out = report("table", file.toString()).out();
        // data rows: not comments, not blank
        List<String> rows = out.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        assertEquals(ms.size(), rows.size(), out);
        // ... and the values shown are the values printed, each once
        List<String> shown = rows.stream().map(r -> r.substring(r.lastIndexOf(' ') + 1)).sorted().toList();
        assertEquals(ms.stream().map(Measurement::text).sorted().toList(), shown, out);
        // every benchmark has a table
        ms.stream().map(Measurement::name).distinct()
                .forEach(n -> assertTrue(out.contains("\n# " + n + "\n") || out.contains("\n# " + n + " "), n + " in\n" + out));
        assertEquals(1 + ms.size(), report("csv", file.toString()).out().lines().filter(l -> !l.startsWith("#")).count());
    }

    @Test
    void tableFromStandardInputEchoesCommentsAsTheyCome() {
        String in = "# header\nput_lat bytes=8 us=0.5\nsome program output\n# trailer\n";
        Output o = report(new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)), "table");
        assertEquals(0, o.status(), o.err());
        assertEquals("# header\nsome program output\n# trailer\n# put_lat\n# Size  Latency (us)\n8                0.5\n\n", o.out());
    }

    @Test
    void csvHasAColumnPerParameter() {
        Output o = report("csv", JAVA.toString());
        assertEquals(0, o.status(), o.err());
        List<String> rows = o.out().lines().filter(l -> !l.startsWith("#")).toList();
        assertEquals("benchmark,bytes,op,mode,teams,pes,threads,ctx,algo,elems,unit,value", rows.getFirst());
        assertEquals(1 + 28, rows.size());
        assertTrue(rows.contains("put_lat,8,,,,,,,,,us,0.150"), o.out());
        assertTrue(rows.contains("bw,1048576,putmem_nbi,,,,2,private,,,MBps,21000"), o.out());
        assertTrue(rows.contains("reduce,,float_sum,host_leaders,,2,,,tree,1,us,2.000"), o.out());
        for (String row : rows) {
            assertEquals(12, row.split(",", -1).length, row);
        }
    }

    @Test
    void csvOfSeveralFilesNamesTheSourceAndQuotes() {
        Output o = report("csv", JAVA.toString(), C.toString());
        List<String> rows = o.out().lines().filter(l -> !l.startsWith("#")).toList();
        assertTrue(rows.getFirst().startsWith("source,benchmark,"), rows.getFirst());
        assertEquals(1 + 28 + 9, rows.size());
        assertTrue(rows.contains(C + ",put_bw,65536,,,,,,,,,MBps,103504"), o.out());
        // a cell with a comma or a quote is quoted
        String odd = "# shmem4j bench results\nx k=a,b us=1\nx k=q\"q us=2\n";
        Output quoted = report(new ByteArrayInputStream(odd.getBytes(StandardCharsets.UTF_8)), "csv");
        assertEquals("# shmem4j bench results\nbenchmark,k,unit,value\nx,\"a,b\",us,1\nx,\"q\"\"q\",us,2\n", quoted.out());
    }

    @Test
    void latencyFigurePairsJavaWithC() {
        List<ResultFile> files = List.of(ResultFile.read(JAVA), ResultFile.read(C));
        List<Series> s = Figures.series(Figures.ALL.getFirst(), files);
        assertEquals(List.of("JAVA put_lat", "JAVA get_lat", "C put_lat", "C get_lat"),
                s.stream().map(x -> x.side() + " " + x.label()).toList());
        assertEquals(new TreeMap<>(Map.of(8.0, 0.122, 1024.0, 0.135, 1048576.0, 21.3)), s.get(2).points());
        String gp = Figures.script(Figures.ALL.getFirst(), files);
        assertTrue(gp.contains("set output \"latency.png\"\n"), gp);
        assertTrue(gp.contains("$s0 << EOD\n8 0.15\n1024 0.21\n1048576 25.4\nEOD\n"), gp);
        assertTrue(gp.contains("$s2 using 1:2 with linespoints lc 1 dt 2 pt 6 lw 1.5 title \"C put_lat\""), gp);
        assertTrue(gp.contains("$s1 using 1:2 with linespoints lc 2 dt 1 pt 7 lw 1.5 title \"Java get_lat\""), gp);
        assertTrue(gp.contains("solid: Java (shmem4j), dashed: C peer"), gp);
        assertTrue(gp.contains("set xtics rotate by 30 right (\"8 B\" 8, \"1 KiB\" 1024, \"1 MiB\" 1048576)\n"), gp);
        assertEquals("1 Ki", Figures.binary(1024, ""));
        assertEquals("3 KiB", Figures.binary(3072, "B"));
        assertEquals("1000 B", Figures.binary(1000, "B"));
        assertEquals("64 MiB", Figures.binary(64L << 20, "B"));
    }

    @Test
    void reduceFiguresHaveALinePerAlgorithm() {
        List<ResultFile> files = List.of(ResultFile.read(JAVA), ResultFile.read(C));
        List<Series> world = Figures.series(figure("reduce_algo"), files);
        assertEquals(List.of("algo=linear", "algo=tree"), world.stream().map(Series::label).toList());
        assertEquals(new TreeMap<>(Map.of(1.0, 0.9, 4.0, 1.0)), world.get(1).points());
        String gp = Figures.script(figure("reduce_algo"), files);
        // what every line shares goes to the title; the C peer's long_sum reduce (no algo) is not there
        assertTrue(gp.contains("\\nop=float_sum pes=2, Java (shmem4j)\""), gp);
        assertFalse(gp.contains("long_sum"), gp);
        List<Series> hosts = Figures.series(figure("reduce_algo_hosts"), files);
        assertEquals(1, hosts.size());
        assertEquals("reduce", hosts.getFirst().label());
    }

    @Test
    void teamCreateFigureGoesAcrossFilesOfSeveralPeCounts() {
        List<Series> s = Figures.series(figure("team_create"), List.of(ResultFile.read(JAVA), ResultFile.read(JAVA4)));
        assertEquals(List.of("op=dup", "op=halving"), s.stream().map(Series::label).toList());
        assertEquals(new TreeMap<>(Map.of(2.0, 9.5, 4.0, 30.0)), s.getFirst().points());
        String gp = Figures.script(figure("team_create"), List.of(ResultFile.read(JAVA), ResultFile.read(JAVA4), ResultFile.read(C)));
        assertTrue(gp.contains("\\nteams=64, Java (shmem4j), medians over 2 Java files\""), gp);
        List<Series> m = Figures.series(figure("msgrate_threads"), List.of(ResultFile.read(JAVA)));
        assertEquals(List.of("ctx=private", "ctx=shared"), m.stream().map(Series::label).toList());
        assertNull(Figures.script(figure("team_create"), List.of(ResultFile.read(C))));
    }

    private static Figures.Figure figure(String name) {
        return Figures.ALL.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void plotWritesAScriptPerFigureWithDataAndSkipsUnknownFiles(@TempDir Path dir) throws IOException {
        Path unknown = dir.resolve("cut.txt");
        Files.writeString(unknown, "put_lat bytes=8 us=1\n");
        Output o = report("plot", "-o", dir.resolve("fig").toString(), JAVA.toString(), C.toString(), unknown.toString());
        assertEquals(0, o.status(), o.err());
        String[] expected = {"latency.gp", "bandwidth.gp", "msgrate_threads.gp", "reduce_algo.gp", "reduce_algo_hosts.gp",
                "team_create.gp"};
        assertArrayEquals(Arrays.stream(expected).map(n -> dir.resolve("fig").resolve(n).toString()).toArray(),
                o.out().lines().toArray());
        assertTrue(o.err().contains("skipping " + unknown), o.err());

        Output none = report("plot", "-o", dir.toString(), unknown.toString());
        assertEquals(1, none.status());
        assertTrue(none.err().contains("no data for any figure"), none.err());
        assertEquals(2, report("plot", JAVA.toString()).status());
        assertEquals(2, report("draw").status());
        assertEquals(1, report("table", dir.resolve("missing.txt").toString()).status());
    }

    /** Runs gnuplot on the scripts when it is installed (bench/plot.sh installs it; CI may not have it). */
    @Test
    void gnuplotDrawsEveryScript(@TempDir Path dir) throws IOException, InterruptedException {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/gnuplot")), "gnuplot is not installed: not run");
        Output o = report("plot", "-o", dir.toString(), JAVA.toString(), C.toString(), JAVA4.toString());
        assertEquals(0, o.status(), o.err());
        for (String gp : o.out().lines().toList()) {
            Process p = new ProcessBuilder("gnuplot", Path.of(gp).getFileName().toString()).directory(dir.toFile())
                    .redirectErrorStream(true).start();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "gnuplot " + gp + " did not end");
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), said);
            Path png = Path.of(gp.replaceAll("\\.gp$", ".png"));
            byte[] head = Arrays.copyOf(Files.readAllBytes(png), 4);
            assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, head, png.toString());
            assertTrue(said.isBlank(), "gnuplot warned on " + gp + ": " + said);
        }
    }
}
