package org.shmem4j.core.route;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shmem4j.ShmemException;
import org.shmem4j.transport.AtomicOp;
import org.shmem4j.transport.Channel;

/**
 * The routing decisions without a network: world PEs 0 and 2 are mapped, 1 and 3 remote; a
 * recording channel shows what the network was asked, with which world ranks.
 */
class RouterTest {
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment[] world = {arena.allocate(64, 8), null, arena.allocate(64, 8), null};
    private final List<String> sent = new ArrayList<>();
    private boolean opened;

    /** A channel that records each call as "name n", n its first int argument: the world rank (an AMO's: its width). */
    private final Channel channel = (Channel) Proxy.newProxyInstance(Channel.class.getClassLoader(), new Class<?>[] {Channel.class},
            (proxy, method, args) -> {
                String pe = args == null ? "" : Arrays.stream(args).filter(a -> a instanceof Integer).findFirst()
                        .map(a -> " " + a).orElse("");
                sent.add(method.getName() + pe);
                return method.getReturnType() == long.class ? 7L : method.getReturnType() == boolean.class ? false : null;
            });

    private final Router.Network network = new Router.Network() {
        @Override
        public Channel channel(String routine) {
            opened = true;
            return channel;
        }

        @Override
        public Channel opened() {
            return opened ? channel : null;
        }
    };

    private static MemorySegment longs(long... values) {
        return MemorySegment.ofArray(values);
    }

    @Test
    void aTeamRoutesItsMembersInTeamOrderAndNamesThemByWorldRank() {
        Routes all = Routes.world(world);
        Routes team = all.members(new int[] {3, 2, 1});
        assertEquals(3, team.size());
        assertNull(team.region(0));
        assertSame(world[2], team.region(1));
        assertEquals(3, team.worldRank(0));
        assertEquals(1, team.worldRank(2));
        assertEquals(2, all.worldRank(2));
        assertSame(all, all.members(new int[] {0, 1, 2, 3}), "the world team shares the world's table");
        assertThrows(IllegalStateException.class, () -> team.members(new int[] {0}));
        assertEquals(0, Routes.none().size());
    }

    @Test
    void mappedPesAreCopiesAndTheOthersGoToTheChannelByWorldRank() {
        Router router = new Router(Routes.world(world).members(new int[] {2, 3}), network, false);
        router.put("shmem_put", 0, 8, longs(41, 42), 8, 8, false);
        assertEquals(42, world[2].get(ValueLayout.JAVA_LONG, 8));
        MemorySegment back = longs(0, 0);
        router.get("shmem_get", back, 8, 8, 0, 8, false);
        assertEquals(42, back.get(ValueLayout.JAVA_LONG, 8));
        assertTrue(sent.isEmpty(), "nothing mapped goes to the network: " + sent);
        assertEquals(42, router.fetchingAtomic("shmem_atomic_fetch_add", AtomicOp.ADD, 8, 0, 8, 1, 0));
        assertEquals(43, world[2].get(ValueLayout.JAVA_LONG, 8));

        router.put("shmem_put", 1, 8, longs(1), 0, 8, false);
        router.put("shmem_put_nbi", 1, 8, longs(1), 0, 8, true);
        router.get("shmem_get", back, 0, 8, 1, 8, false);
        assertEquals(7, router.fetchingAtomic("shmem_atomic_fetch_add", AtomicOp.ADD, 8, 1, 8, 1, 0));
        router.putSignal("shmem_put_signal", 1, 0, longs(1), 16, AtomicOp.ADD, 1, false);
        router.raise("collective", 1, 0, longs(), 0, 0, 24, 5);
        assertEquals(List.of("put 3", "putNbi 3", "get 3", "fetchingAtomic 8", "putSignal 3", "putRaise 3"), sent);
    }

    @Test
    void signalsOnMappedPesAreVisibleAfterTheirData() {
        Router router = new Router(Routes.world(world), network, false);
        router.putSignal("shmem_put_signal", 2, 0, longs(9), 8, AtomicOp.SWAP, 5, false);
        router.signal("shmem_signal_add", 2, 8, AtomicOp.ADD, 2);
        router.raise("collective", 2, 16, longs(3), 0, 8, 24, 11);
        assertArrayEquals(new long[] {9, 7, 3, 11}, world[2].asSlice(0, 32).toArray(ValueLayout.JAVA_LONG));
        assertTrue(sent.isEmpty(), sent::toString);
    }

    @Test
    void whenEveryAmoTakesTheNetworkFenceCompletesThoseToMappedPes() {
        Router router = new Router(Routes.world(world), network, true);
        assertArrayEquals(new MemorySegment[4], router.atomicRegions());
        router.put("shmem_put", 0, 0, longs(1), 0, 8, false); // a store: no channel yet
        router.fence();
        assertTrue(sent.isEmpty(), sent::toString);
        router.atomic("shmem_atomic_add", AtomicOp.ADD, 8, 2, 0, 1);
        router.fence();
        assertEquals(List.of("atomic 8", "fence", "quiet 0", "quiet 2"), sent);
        sent.clear();
        router.fence();
        assertEquals(List.of("fence"), sent, "nothing in flight to mapped PEs any more");
        sent.clear();
        router.quiet(new int[] {0, 1});
        assertEquals(List.of("quiet 0", "quiet 1"), sent);
    }

    @Test
    void peQuietCompletesOnlyWhatTheChannelCarries() {
        Router router = new Router(Routes.world(world).members(new int[] {0, 1, 3}), network, false);
        router.quiet(new int[] {0, 1, 2});
        assertTrue(sent.isEmpty(), "no channel opened, nothing to complete: " + sent);
        router.put("shmem_put", 1, 0, longs(1), 0, 8, false);
        router.quiet(new int[] {0, 1, 2});
        router.quiet();
        assertEquals(List.of("put 1", "quiet 1", "quiet 3", "quiet"), sent);
    }

    @Test
    void aRemotePeWithoutANetworkFailsNamingTheRoutineAndItsWorldRank() {
        Router router = new Router(Routes.world(world).members(new int[] {0, 3}), null, false);
        ShmemException e = assertThrows(ShmemException.class, () -> router.put("shmem_putmem", 1, 0, longs(1), 0, 8, false));
        assertEquals("shmem_putmem: PE 3 is on another node and no network engine is open", e.getMessage());
        router.fence();
        router.quiet();
        router.quiet(new int[] {1});
    }
}
