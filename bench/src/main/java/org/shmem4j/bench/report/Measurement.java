package org.shmem4j.bench.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.StringJoiner;

/**
 * One result line of a benchmark, as both bench/run.sh and the C peer print it:
 * {@code name key=value ... unit=value}, e.g. {@code put_lat bytes=8 us=0.122}. The last pair is
 * the unit and the measured value; the name and the pairs before it name the measurement.
 *
 * @param name   the benchmark's name, the first word ({@code put_lat})
 * @param params the pairs between name and value, in their order ({@code bytes=8})
 * @param unit   the unit ({@code us}, {@code MBps}, {@code Mmsgs}, ...)
 * @param text   the value as printed (kept so that a table shows the program's own digits)
 */
record Measurement(String name, SequencedMap<String, String> params, String unit, String text) {
    public Measurement {
        params = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(params));
    }

    /** The measured value. */
    double value() {
        return Double.parseDouble(text);
    }

    /** The line without its value: what names the measurement ({@code put_lat bytes=8 us}). */
    String key() {
        StringJoiner j = new StringJoiner(" ");
        j.add(name);
        params.forEach((k, v) -> j.add(k + "=" + v));
        return j.add(unit).toString();
    }

    /**
     * Parses a result line; empty for comments ('#'), blank lines and anything else that is not
     * {@code name key=value ... unit=number}.
     */
    static Optional<Measurement> parse(String line) {
        String[] parts = line.trim().split("\\s+");
        if (parts.length < 2 || parts[0].isEmpty() || parts[0].startsWith("#") || parts[0].contains("=")) {
            return Optional.empty();
        }
        SequencedMap<String, String> params = new LinkedHashMap<>();
        String[] last = null;
        for (int i = 1; i < parts.length; i++) {
            String[] kv = parts[i].split("=", 2);
            if (kv.length != 2 || kv[0].isEmpty()) {
                return Optional.empty();
            }
            if (i == parts.length - 1) {
                last = kv;
            } else {
                params.put(kv[0], kv[1]);
            }
        }
        try {
            Double.parseDouble(last[1]);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.of(new Measurement(parts[0], params, last[0], last[1]));
    }
}
