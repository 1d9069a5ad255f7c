package org.shmem4j.core.route;

import java.lang.foreign.MemorySegment;

/**
 * How this PE reaches each PE of a group, the world or a team's members in team order: a PE of
 * this node by load and store on its mapped region, any other through the network. Immutable and
 * shared by the group's contexts and its collectives; the only place where a team's numbers become
 * world ranks.
 *
 * <p>Size: one reference per member (4 bytes, compressed). At 65,536 PEs the world's table is
 * 256 KiB, shared by the world team; another team of n members adds 4n bytes and shares its
 * member array as its world ranks.
 */
public final class Routes {
    private static final Routes NONE = new Routes(new MemorySegment[0], new int[0]);

    private final MemorySegment[] regions;
    /** Null when the group is the world (its numbers are world ranks). */
    private final int[] worldRanks;

    private Routes(MemorySegment[] regions, int[] worldRanks) {
        this.regions = regions;
        this.worldRanks = worldRanks;
    }

    /** The world's routes: {@code regions[pe]} is PE {@code pe}'s mapped region, null where the network carries. */
    public static Routes world(MemorySegment[] regions) {
        return new Routes(regions, null);
    }

    /** A group no PE number reaches: what a retired context routes to. */
    public static Routes none() {
        return NONE;
    }

    /**
     * The routes to {@code members}, PEs of this world's table (world ranks), in that order: a
     * team's. The array is kept as the team's world ranks (the team holds it anyway); a team of
     * every PE in order (the world team) gets this table itself.
     */
    public Routes members(int[] members) {
        if (worldRanks != null) {
            throw new IllegalStateException("a team's routes are taken from the world's");
        }
        if (isEveryPeInOrder(members)) {
            return this;
        }
        MemorySegment[] mine = new MemorySegment[members.length];
        for (int i = 0; i < members.length; i++) {
            mine[i] = regions[members[i]];
        }
        return new Routes(mine, members);
    }

    private boolean isEveryPeInOrder(int[] members) {
        if (members.length != regions.length) {
            return false;
        }
        for (int i = 0; i < members.length; i++) {
            if (members[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** The number of PEs in the group. */
    public int size() {
        return regions.length;
    }

    /**
     * The load/store view of member {@code pe}'s region, or null when the network carries its
     * operations; the table itself, for the hot path's single array load (unchecked: callers check
     * {@code pe} against {@link #size()}).
     */
    public MemorySegment[] regions() {
        return regions;
    }

    /** Member {@code pe}'s mapped region, or null (see {@link #regions()}). */
    public MemorySegment region(int pe) {
        return regions[pe];
    }

    /** Member {@code pe}'s world rank: what channels and the job's diagnostics address. */
    public int worldRank(int pe) {
        return worldRanks == null ? pe : worldRanks[pe];
    }
}
