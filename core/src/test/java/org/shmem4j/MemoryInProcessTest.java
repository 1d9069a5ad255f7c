package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The symmetric heap routines (spec 9.3) across PEs. */
@Timeout(120)
class MemoryInProcessTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void allocationsAreSymmetricAlignedAndUsableAtOnce(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe(), n = shmem.nPes();
                SymmetricSegment a = shmem.malloc(100);
                SymmetricSegment b = shmem.align(4096, 10);
                SymmetricIntArray c = shmem.calloc(ValueLayout.JAVA_INT, 33);
                SymmetricSegment d = shmem.mallocWithHints(64, Shmem.MALLOC_ATOMICS_REMOTE | Shmem.MALLOC_SIGNAL_REMOTE);
                assertEquals(0, a.offset() % 64);
                assertEquals(0, b.offset() % 4096);
                assertEquals(Shmem.MALLOC_ATOMICS_REMOTE | Shmem.MALLOC_SIGNAL_REMOTE, d.hints());
                assertEquals(33, c.length());
                for (int i = 0; i < 33; i++) {
                    assertEquals(0, c.get(i));
                }
                shmem.barrierAll(); // everyone checked the zeros before anyone writes
                for (int pe = 0; pe < n; pe++) {
                    shmem.p(c, me, me + 1, pe);
                }
                shmem.barrierAll();
                for (int pe = 0; pe < n; pe++) {
                    assertEquals(pe + 1, c.get(pe));
                }
                d.close();
                c.close();
                b.close();
                a.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void reallocKeepsContentsAndRetiresTheOldHandle(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe();
                SymmetricLongArray x = shmem.malloc(ValueLayout.JAVA_LONG, 8);
                SymmetricSegment blocker = shmem.malloc(64); // forces the grow to move
                for (int i = 0; i < 8; i++) {
                    x.set(i, me * 100L + i);
                }
                SymmetricLongArray y = shmem.realloc(x, 1000);
                assertNotEquals(x.offset(), y.offset());
                assertEquals(1000, y.length());
                for (int i = 0; i < 8; i++) {
                    assertEquals(me * 100L + i, y.get(i));
                }
                assertThrows(IllegalStateException.class, () -> x.get(0));
                SymmetricLongArray z = shmem.realloc(y, 4); // shrink in place
                assertEquals(y.offset(), z.offset());
                assertEquals(me * 100L + 3, z.get(3));
                SymmetricLongArray gone = shmem.realloc(z, 0); // size 0 frees
                assertEquals(0, gone.length());
                assertThrows(IllegalStateException.class, () -> z.get(0));
                SymmetricLongArray again = shmem.realloc(gone, 2); // an empty object is allocated afresh
                assertEquals(2, again.length());
                again.close();
                blocker.close();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void sizeZeroDoesNothing(int npes) {
        InProcessTestSupport.run(npes, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricSegment empty = shmem.malloc(0);
                assertEquals(0, empty.byteSize());
                empty.close(); // like shmem_free(NULL): no barrier, no error
                empty.close();
                assertEquals(0, shmem.calloc(0, 8).byteSize());
                assertEquals(0, shmem.calloc(ValueLayout.JAVA_DOUBLE, 0).length());
                assertEquals(0, shmem.align(64, 0).byteSize());
            }
        });
    }

    @Test
    void exhaustionFailsOnEveryPeAndLosesNothing() {
        InProcessTestSupport.run(3, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricLongArray keep = shmem.calloc(ValueLayout.JAVA_LONG, 4);
                keep.set(3, 77);
                var e = assertThrows(ShmemException.class, () -> shmem.malloc(9L << 20));
                assertTrue(e.getMessage().contains("shmem_malloc") && e.getMessage().contains("9437184"), e.getMessage());
                assertTrue(e.getMessage().contains("exhausted"), e.getMessage());
                var e2 = assertThrows(ShmemException.class, () -> shmem.realloc(keep, 2L << 20));
                assertTrue(e2.getMessage().contains("shmem_realloc"), e2.getMessage());
                assertEquals(77, keep.get(3)); // the old object is intact
                SymmetricSegment big = shmem.malloc(6L << 20); // the heap still serves what fits
                big.close();
                keep.close();
            }
        });
    }

    @Test
    void badArgumentsAreNamed() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                var e = assertThrows(IllegalArgumentException.class, () -> shmem.align(12, 64));
                assertTrue(e.getMessage().contains("shmem_align") && e.getMessage().contains("12"), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> shmem.malloc(-1));
                assertThrows(IllegalArgumentException.class, () -> shmem.calloc(Long.MAX_VALUE, 2));
                shmem.mallocWithHints(8, -1L).close(); // unknown hint bits: as shmem_malloc (spec 9.3.5)
            }
        });
    }

    @Test
    void debugModeNamesTheDivergingAllocation() {
        var result = InProcessTestSupport.runWith(2, InProcessTestSupport.env("SHMEM_DEBUG", "1"), () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricSegment same = shmem.malloc(64);
                shmem.malloc(shmem.myPe() == 0 ? 128 : 256);
                same.close();
            }
        });
        assertEquals(1, result.status());
        String all = result.failures().toString();
        assertTrue(all.contains("disagree") && all.contains("bytes=128") && all.contains("bytes=256"), all);
    }

    @Test
    void localAccessorsOfEveryType() {
        InProcessTestSupport.run(1, () -> {
            try (Shmem shmem = Shmem.init()) {
                SymmetricDoubleArray d = shmem.malloc(ValueLayout.JAVA_DOUBLE, 3);
                d.fill(1.5);
                d.set(2, -2);
                assertArrayEquals(new double[] {1.5, 1.5, -2}, d.toArray());
                assertThrows(IndexOutOfBoundsException.class, () -> d.get(3));
                d.close();
            }
        });
    }
}
