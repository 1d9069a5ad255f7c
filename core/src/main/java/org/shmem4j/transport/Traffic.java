package org.shmem4j.transport;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one PE sent through a network engine since the engine opened: operations by kind and their
 * payload bytes. One per transport, shared by its channels (and its message handlers, which send
 * replies and answers); adders because the contexts of several threads count at once, and an
 * uncontended add costs a few nanoseconds beside an operation's microseconds. These counts do not
 * depend on the machine's speed or noise, so they say what an algorithm costs on any fabric.
 */
public final class Traffic {
    /** A transport that sends nothing over a network (shared memory): always zero. */
    public static final Traffic NONE = new Traffic();

    /** The kinds of operations counted, each under {@code network.<name>}. */
    public enum Kind {
        /** RMA puts the engine carries (UCX put). */
        PUTS,
        /** RMA gets: the request goes out, the data comes back; counted with the bytes fetched. */
        GETS,
        /** Remote atomic operations, fetching or not. */
        ATOMICS,
        /** Active messages: puts with signal, batches, flag raises, queries, replies and answers. */
        MESSAGES
    }

    private final LongAdder[] operations = new LongAdder[Kind.values().length];
    private final LongAdder bytes = new LongAdder();

    public Traffic() {
        for (int k = 0; k < operations.length; k++) {
            operations[k] = new LongAdder();
        }
    }

    /** Counts one operation of {@code kind} moving {@code payloadBytes} bytes of data. */
    public void count(Kind kind, long payloadBytes) {
        operations[kind.ordinal()].increment();
        bytes.add(payloadBytes);
    }

    /**
     * The counts so far, named {@code network.puts}, {@code network.gets}, {@code network.atomics},
     * {@code network.messages} and {@code network.bytes}, in that order.
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Kind kind : Kind.values()) {
            counts.put("network." + kind.name().toLowerCase(java.util.Locale.ROOT), operations[kind.ordinal()].sum());
        }
        counts.put("network.bytes", bytes.sum());
        return counts;
    }
}
