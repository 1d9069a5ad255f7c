package org.shmem4j.core.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.shmem4j.transport.Channel;

/** How a waiter moves between spinning, yielding and parking, against a scripted network channel. */
class WaitPolicyTest {
    /** A channel that records the waiter's calls and answers progress() from {@code activity}. */
    private static final class Network {
        final List<String> calls = new ArrayList<>();
        boolean activity;
        final Channel channel = (Channel) Proxy.newProxyInstance(Channel.class.getClassLoader(), new Class<?>[] {Channel.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "progress" -> {
                        calls.add("progress");
                        yield activity;
                    }
                    case "parking" -> {
                        calls.add("parking");
                        yield null;
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    @Timeout(10)
    void aParkedWaiterPollsAgainOnceItsPeersTalkToIt() {
        Network net = new Network();
        WaitPolicy policy = new WaitPolicy(2, 2, 1_000, () -> {}, () -> net.channel);
        WaitPolicy.Waiter w = policy.start();
        for (int i = 0; i < 4; i++) {
            w.pause(); // 2 spins and 2 yields, each polling the network: nothing
        }
        assertEquals(List.of("progress", "progress", "progress", "progress"), net.calls);
        net.calls.clear();
        w.pause(); // parks, then looks whether peers talked meanwhile: no
        assertEquals(List.of("parking", "progress"), net.calls);
        net.calls.clear();
        w.pause(); // still nothing: parks again
        assertEquals(List.of("parking", "progress"), net.calls);
        net.calls.clear();
        net.activity = true;
        w.pause(); // parks; after it peers are talking (to the progress agent, say)
        net.calls.clear();
        net.activity = false;
        w.pause(); // so it polls again, from the yield phase, instead of parking
        w.pause();
        assertEquals(List.of("progress", "progress"), net.calls);
        net.calls.clear();
        w.pause(); // the yields are used up with nothing heard: parks
        assertEquals(List.of("parking", "progress"), net.calls);
    }

    @Test
    @Timeout(10)
    void aWaiterWithoutANetworkParksAfterItsSpinsAndYields() {
        int[] alive = {0};
        WaitPolicy policy = new WaitPolicy(3, 2, 1_000, () -> alive[0]++);
        WaitPolicy.Waiter w = policy.start();
        for (int i = 0; i < 5; i++) {
            w.pause();
        }
        assertEquals(0, alive[0], "no liveness check while spinning and yielding");
        w.pause();
        w.pause();
        assertEquals(2, alive[0], "a liveness check after every park");
    }
}
