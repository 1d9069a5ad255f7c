package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import org.shmem4j.Cmp;
import org.shmem4j.SymmetricArray;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.SymmetricShortArray;
import org.shmem4j.TeamConfig;

/**
 * The runtime side of the deprecated API ({@link org.shmem4j.Legacy}): the active sets, and the
 * 16-bit waits and tests that the current API no longer has.
 *
 * <p>The active sets of the deprecated 1.4 collectives ({@code PE_start}, {@code logPE_stride},
 * {@code PE_size}) as teams: the first call with a triple makes a team of its members, later calls
 * with the same triple reuse it, and finalize retires them with every other team.
 *
 * <p>A team is normally split from a parent by a collective over the parent, but an active-set
 * collective is called by the active set's members only. So the members agree on the team's
 * block among themselves, through the {@code pSync} array the routine is given (symmetric, equal
 * to {@link #SYNC_VALUE} everywhere, not in use by another collective: what the spec promises): a
 * dissemination AND of their offers ({@link MaskAgreement}), one cell of {@code pSync} per round.
 * Every member ends with the same AND and takes its lowest fitting run of units, and every cell is
 * back at {@code SYNC_VALUE} when the call returns. Later calls with the triple use only the
 * team's own resources.
 */
public final class LegacySupport {
    /** {@code SHMEM_SYNC_VALUE}: what every element of a pSync array holds between calls. */
    public static final long SYNC_VALUE = 0L;
    /** Longs in one agreement cell: the mask words, the word that says they arrived, padding to a cache line. */
    private static final int CELL = (int) (TeamPool.CELL_BYTES / 8);
    private static final int MAX_ROUNDS = 31; // ceil(log2(Integer.MAX_VALUE))
    /** Longs every pSync must hold: one cell per round of the largest possible active set. */
    public static final int SYNC_SIZE = CELL * MAX_ROUNDS + 8;

    private record Key(int start, int logStride, int size) {
    }

    private final PeRuntime runtime;
    private final Map<Key, TeamImpl> cache = new HashMap<>();

    LegacySupport(PeRuntime runtime) {
        this.runtime = runtime;
    }

    /**
     * The team of the active set, made on first use (agreeing through {@code pSync}). Checks the
     * triple, that this PE is a member, and {@code pSync}: live, at least {@code syncSize} long,
     * and holding {@link #SYNC_VALUE} wherever no member of this call can have written yet.
     */
    public synchronized TeamBase team(String routine, int start, int logStride, int size, SymmetricLongArray pSync,
            long syncSize) {
        runtime.checkInitialized(routine);
        int npes = runtime.nPes();
        if (logStride < 0 || logStride > 30 || size <= 0 || start < 0
                || start + ((long) size - 1 << logStride) >= npes) {
            throw new IllegalArgumentException(routine + ": active set PE_start=" + start + ", logPE_stride=" + logStride
                    + ", PE_size=" + size + " does not name PEs in [0, " + npes + ")");
        }
        int me = runtime.myPe();
        int stride = 1 << logStride;
        if (me < start || (me - start) % stride != 0 || (me - start) / stride >= size) {
            throw new IllegalArgumentException(routine + ": PE " + me + " is not in the active set PE_start=" + start
                    + ", logPE_stride=" + logStride + ", PE_size=" + size);
        }
        Key key = new Key(start, logStride, size);
        TeamImpl team = cache.get(key);
        checkSync(routine, pSync, syncSize, team == null ? CELL * rounds(size) : 0);
        if (team == null) {
            int[] members = new int[size];
            for (int i = 0; i < size; i++) {
                members[i] = start + i * stride;
            }
            int rank = (me - start) / stride;
            TeamPool.Block block = agreeOnBlock(routine, members, rank, pSync.offset());
            team = runtime.teams().register(new TeamImpl(runtime, runtime.teams().pool(), members, rank, block,
                    TeamConfig.DEFAULT, false));
            cache.put(key, team);
        }
        return team;
    }

    private static int rounds(int size) {
        return 32 - Integer.numberOfLeadingZeros(size - 1);
    }

    /**
     * Checks {@code pSync} (spec 9.10: at least {@code syncSize} elements, every one
     * {@code SHMEM_SYNC_VALUE} on entry) except its first {@code skip} elements, which a faster
     * member of a first call may already have written.
     */
    private static void checkSync(String routine, SymmetricLongArray pSync, long syncSize, long skip) {
        if (pSync == null) {
            throw new NullPointerException(routine + ": pSync is null");
        }
        pSync.checkLive(routine);
        if (pSync.length() < syncSize) {
            throw new IllegalArgumentException(routine + ": pSync has " + pSync.length() + " elements, fewer than the "
                    + syncSize + " the routine needs");
        }
        MemorySegment local = pSync.elements();
        for (long i = skip; i < syncSize; i++) {
            long v = local.getAtIndex(ValueLayout.JAVA_LONG, i);
            if (v != SYNC_VALUE) {
                throw new IllegalArgumentException(routine + ": pSync[" + i + "] is " + v + ", not SHMEM_SYNC_VALUE ("
                        + SYNC_VALUE + "): initialize pSync and do not reuse it while another collective uses it");
            }
        }
    }

    /**
     * Checks a reduction's {@code pWrk}: live and of at least {@code max(nreduce / 2 + 1,
     * SHMEM_REDUCE_MIN_WRKDATA_SIZE)} elements (spec 9.10.9).
     */
    public static void checkWork(String routine, SymmetricArray<?> pWrk, long nreduce, long minWrkdata) {
        if (pWrk == null) {
            throw new NullPointerException(routine + ": pWrk is null");
        }
        pWrk.checkLive(routine);
        long need = Math.max(nreduce / 2 + 1, minWrkdata);
        if (pWrk.length() < need) {
            throw new IllegalArgumentException(routine + ": pWrk has " + pWrk.length() + " elements, fewer than the " + need
                    + " (max(nreduce / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE)) needed for nreduce=" + nreduce);
        }
    }

    /** The block the active set's members agree on through {@code pSync}, taken on this PE. */
    private TeamPool.Block agreeOnBlock(String routine, int[] members, int rank, long pSync) {
        TeamPool pool = runtime.teams().pool();
        long[] agreed = pool.offer();
        new MaskAgreement(runtime.teams().world().access(), i -> members[i], round -> pSync + 8L * CELL * round, 1, true)
                .and(agreed, rank, members.length, runtime.waitPolicy(), runtime::checkNotFinalizing);
        if (!TeamPool.roomFor(agreed, 1)) {
            throw new IllegalStateException(routine + ": a member of the active set already has the most teams it may"
                    + " (SHMEM_TEAMS_MAX=" + pool.capacity() + "; destroy unused teams or raise it)");
        }
        int units = pool.unitsFor(members.length);
        int first = pool.claim(agreed, units);
        if (first < 0) {
            throw new IllegalStateException(routine + ": no " + units * pool.unitBytes() + " bytes of the team area are"
                    + " free at one place on every member of the active set (destroy unused teams or raise SHMEM_RESERVED_SIZE)");
        }
        TeamPool.Block block = new TeamPool.Block(first, units);
        pool.take(block);
        return block;
    }

    /** shmem_short_wait[_until]: waits until this PE's {@code ivar[index] cmp value}. */
    public void waitUntilShort(String routine, SymmetricShortArray ivar, long index, Cmp cmp, short value) {
        long off = Symmetrics.offset(routine, "ivar", ivar, index, 1);
        runtime.p2p(routine).waitUntil(routine, off, 2, checked(routine, cmp), value);
    }

    /** shmem_short_test: true if this PE's {@code ivar[index] cmp value} now. */
    public boolean testShort(String routine, SymmetricShortArray ivar, long index, Cmp cmp, short value) {
        long off = Symmetrics.offset(routine, "ivar", ivar, index, 1);
        return checked(routine, cmp).test(runtime.p2p(routine).load(off, 2), value);
    }

    private static Cmp checked(String routine, Cmp cmp) {
        if (cmp == null) {
            throw new IllegalArgumentException(routine + ": comparison operator is null");
        }
        return cmp;
    }
}
