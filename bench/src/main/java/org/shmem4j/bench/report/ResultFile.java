package org.shmem4j.bench.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The measurements of one results file (or stream), and which side printed it.
 *
 * @param source       the file's name, for messages and the CSV's source column
 * @param side         who printed it, from its first comment line
 * @param measurements its result lines, in order
 */
record ResultFile(String source, Side side, List<Measurement> measurements) {
    /** Who printed a results file. */
    enum Side {
        /** bench/run.sh: shmem4j. */
        JAVA("Java"),
        /** bench/peer/run.sh: the C peer (Open MPI OSHMEM). */
        C("C"),
        /** neither header seen (a file cut by hand, ucx-perftest.sh output, ...). */
        UNKNOWN("?");

        /** The short name put before a series' name in a figure's key. */
        final String label;

        Side(String label) {
            this.label = label;
        }

        /** The side whose header this first line is. */
        static Side ofHeader(String firstLine) {
            if (firstLine.startsWith("# shmem4j bench results")) {
                return JAVA;
            }
            if (firstLine.startsWith("# peer results")) {
                return C;
            }
            return UNKNOWN;
        }
    }

    public ResultFile {
        measurements = List.copyOf(measurements);
    }

    /**
     * Reads results from {@code in}; every line that is not a measurement (comments, a program's
     * other output) goes to {@code other} as soon as it is read, so a live run shows its progress.
     */
    static ResultFile read(String source, BufferedReader in, Consumer<String> other) {
        List<Measurement> ms = new ArrayList<>();
        Side side = null;
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (side == null && !line.isBlank()) {
                    side = Side.ofHeader(line);
                }
                var m = Measurement.parse(line);
                if (m.isPresent()) {
                    ms.add(m.get());
                } else {
                    other.accept(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + source, e);
        }
        return new ResultFile(source, side == null ? Side.UNKNOWN : side, ms);
    }

    /** Reads a results file, dropping its comments. */
    static ResultFile read(Path file) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(file.toString(), in, line -> { });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
