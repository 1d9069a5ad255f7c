package org.shmem4j.transport.deferred;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test control of the deferred network: raises to one PE's words in a range are held back, as a
 * network that lost and retransmits them would deliver them late. A held raise still goes as soon
 * as its channel sends that PE anything later (the channel's order to one PE, which UCX keeps
 * too), when its channel is drained of raises ({@link DeferredChannel#settle}, close), or at
 * {@link #release()}. One job at a time in the JVM (the in-process tests).
 */
public final class Holdback {
    private record Rule(int pe, long from, long to) {
    }

    private static volatile Rule rule;
    private static final Set<DeferredChannel> CHANNELS = ConcurrentHashMap.newKeySet();

    private Holdback() {
    }

    /** From now on, raises to world PE {@code pe} of the words in [{@code from}, {@code to}) are held. */
    public static void hold(int pe, long from, long to) {
        rule = new Rule(pe, from, to);
    }

    /** Stops holding and delivers what is held; returns when it was delivered, with how many raises that was. */
    public static int release() {
        rule = null;
        int released = 0;
        for (DeferredChannel c : CHANNELS) {
            released += c.releaseHeld();
        }
        return released;
    }

    static boolean holds(int pe, long offset) {
        Rule r = rule;
        return r != null && r.pe() == pe && offset >= r.from() && offset < r.to();
    }

    static void opened(DeferredChannel c) {
        CHANNELS.add(c);
    }

    static void closed(DeferredChannel c) {
        CHANNELS.remove(c);
    }
}
