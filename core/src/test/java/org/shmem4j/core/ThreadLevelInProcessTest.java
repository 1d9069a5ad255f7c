package org.shmem4j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.InProcessTestSupport;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.ThreadLevel;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.transport.ChannelMode;
import org.shmem4j.transport.ChannelOptions;
import org.shmem4j.transport.deferred.DeferredProvider;

/**
 * The thread level (spec 9.2): {@code shmem_init_thread} provides the level requested,
 * {@code shmem_query_thread} reports it (also to a nested init, which cannot change it), and the
 * level decides how the default context's network channel may be used. Every level still does
 * RMA, AMOs and quiet, on one node and with peers on another pseudo-node (the deferred test
 * network, or the engine {@code SHMEM_NETWORK} names: UCX in CI).
 */
@Timeout(240)
class ThreadLevelInProcessTest {
    private static final String NETWORK = System.getenv().getOrDefault("SHMEM_NETWORK", "deferred");

    static Stream<Arguments> levelsAndLayouts() {
        int[][] layouts = {{1, 1}, {3, 1}, {2, 2}, {3, 2}};
        return Stream.of(ThreadLevel.values())
                .flatMap(level -> Stream.of(layouts).map(l -> Arguments.of(level, l[0], l[1])));
    }

    /** What each level lets the channel's users do: one thread, threads taking turns, threads at once. */
    private static ChannelMode expectedMode(ThreadLevel level) {
        return switch (level) {
            case SINGLE, FUNNELED -> ChannelMode.PRIVATE;
            case SERIALIZED -> ChannelMode.SERIALIZED;
            case MULTIPLE -> ChannelMode.SHARED;
        };
    }

    @ParameterizedTest(name = "{0} at {1} PEs on {2} node(s)")
    @MethodSource("levelsAndLayouts")
    void theLevelRequestedIsProvidedAndEveryPathWorks(ThreadLevel level, int npes, int nodes) {
        InProcessTestSupport.runWith(npes, InProcessTestSupport.env(InProcessHub.NODES, Integer.toString(nodes),
                "SHMEM_NETWORK", NETWORK), () -> {
            try (Shmem shmem = Shmem.initThread(level)) {
                assertEquals(level, shmem.queryThread(), "shmem_query_thread");
                int me = shmem.myPe(), n = shmem.nPes(), next = (me + 1) % n;
                SymmetricLongArray data = shmem.calloc(ValueLayout.JAVA_LONG, 2);
                shmem.p(data, 0, 100 + me, next);
                shmem.atomicAdd(data, 1, me + 1, 0);
                shmem.quiet();
                shmem.barrierAll();
                assertEquals(100 + (me + n - 1) % n, data.get(0), "the put of the previous PE");
                assertEquals(100 + me, shmem.g(data, 0, next), "a get of this PE's put");
                assertEquals((long) n * (n + 1) / 2, shmem.atomicFetchAdd(data, 1, 0L, 0), "every PE's add at PE 0");
                ThreadLevel other = level == ThreadLevel.MULTIPLE ? ThreadLevel.SINGLE : ThreadLevel.MULTIPLE;
                try (Shmem nested = Shmem.initThread(other)) {
                    assertEquals(level, nested.queryThread(), "a nested init keeps the level provided first");
                }
                PeRuntime runtime = (PeRuntime) shmem;
                Optional<ChannelOptions> options = DeferredProvider.optionsOf(runtime.networkChannel());
                if (nodes > 1 && NETWORK.equals("deferred")) {
                    // the mode the level allows, and the routes the policy chose from the engine's capabilities
                    assertEquals(Optional.of(NetworkPolicy.options(runtime.network().capabilities(), expectedMode(level))), options,
                            "the default context's channel");
                } else {
                    options.ifPresent(o -> assertEquals(expectedMode(level), o.mode(), "the default context's channel"));
                }
                data.close();
            }
        }).orThrow();
    }

    @Test
    void initProvidesMultiple() {
        InProcessTestSupport.runWith(2, InProcessTestSupport.env(), () -> {
            try (Shmem shmem = Shmem.init()) {
                assertEquals(ThreadLevel.MULTIPLE, shmem.queryThread());
                assertTrue(Shmem.queryInitialized());
            }
        }).orThrow();
    }
}
