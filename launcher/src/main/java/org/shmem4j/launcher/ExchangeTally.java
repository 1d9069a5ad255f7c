package org.shmem4j.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The bytes a job's bootstrap exchange moved through oshrun, counted per all-gather (by its
 * sequence number) and for the on-demand lookups: what the PEs contributed, and what oshrun sent
 * back (each all-gather's result frame goes to every PE). {@code SHMEM_INFO=1} prints it when the
 * job ends. Thread-safe.
 */
final class ExchangeTally {
    /** One all-gather: its contributions' bytes, and the frames sent with its result. */
    private static final class Gather {
        long in, largest, frame;
        int recipients;
    }

    private final TreeMap<Long, Gather> gathers = new TreeMap<>();
    private long published, publishedBytes, lookups, lookupBytes;

    synchronized void received(long seq, int bytes) {
        Gather g = gathers.computeIfAbsent(seq, s -> new Gather());
        g.in += bytes;
        g.largest = Math.max(g.largest, bytes);
    }

    synchronized void sent(long seq, int recipients, int frameBytes) {
        Gather g = gathers.computeIfAbsent(seq, s -> new Gather());
        g.recipients = recipients;
        g.frame = frameBytes;
    }

    /** A PE published {@code bytes} for on-demand lookup. */
    synchronized void published(int bytes) {
        published++;
        publishedBytes += bytes;
    }

    /** A lookup was answered with {@code bytes}. */
    synchronized void answered(int bytes) {
        lookups++;
        lookupBytes += bytes;
    }

    /** Bytes oshrun sent to PEs for all-gathers and lookups (all PEs together). */
    synchronized long bytesOut() {
        return gathers.values().stream().mapToLong(g -> g.frame * g.recipients).sum() + lookupBytes;
    }

    /** Lines for the end of the job: a total, then one per all-gather. */
    synchronized List<String> report() {
        var lines = new ArrayList<String>();
        long in = gathers.values().stream().mapToLong(g -> g.in).sum();
        lines.add("oshrun: bootstrap exchange: " + gathers.size() + " all-gathers, " + in + " bytes from the PEs, " + bytesOut()
                + " bytes to them; " + published + " publications (" + publishedBytes + " bytes), " + lookups
                + " lookups answered (" + lookupBytes + " bytes)");
        gathers.forEach((seq, g) -> lines.add("oshrun:   all-gather " + seq + ": " + g.in + " bytes in (largest "
                + g.largest + "), result frame " + g.frame + " bytes to " + g.recipients + " PEs"));
        return lines;
    }
}
