package org.shmem4j;

import java.lang.foreign.MemorySegment;

/**
 * A team of PEs (spec 9.4): an ordered subset of the world, numbered from 0, with its own
 * synchronization resources. Predefined teams come from {@link Shmem#teamWorld()},
 * {@link Shmem#teamShared()} and the extensions {@link Shmem#teamHost()} and
 * {@link Shmem#teamLeaders()}; new teams come from collective splits of a parent team.
 *
 * <p>A split on a PE that is not a member of the new team, or a split that failed, returns an
 * <em>invalid</em> team ({@code SHMEM_TEAM_INVALID}): {@link #isValid()} is false, {@link #myPe()}
 * and {@link #nPes()} return -1, {@link #invalidReason()} says why; any other use throws
 * {@link IllegalStateException}. Destroyed teams behave the same.
 */
public interface Team extends AutoCloseable {
    /** {@code SHMEM_TEAM_NUM_CONTEXTS}: the split should honour {@link TeamConfig#numContexts()}. */
    long NUM_CONTEXTS = 1L;

    /** The outcome of {@link #split2d}: this PE's row ({@code x}) and column ({@code y}) teams. */
    record Split2d(Team xAxis, Team yAxis) {
    }

    /** True for a usable team; false for {@code SHMEM_TEAM_INVALID} and destroyed teams. */
    boolean isValid();

    /** Why the team is invalid (null for a valid team). */
    String invalidReason();

    /** This PE's number in the team, or -1 for an invalid team. Binds {@code shmem_team_my_pe}. */
    @Binds("shmem_team_my_pe")
    int myPe();

    /** Number of PEs in the team, or -1 for an invalid team. Binds {@code shmem_team_n_pes}. */
    @Binds("shmem_team_n_pes")
    int nPes();

    /** The team's configuration as the library holds it now. Binds {@code shmem_team_get_config}. */
    @Binds("shmem_team_get_config")
    TeamConfig getConfig();

    /**
     * The number in {@code destTeam} of this team's PE {@code pe}, or -1 if that PE is not a member
     * of both teams or either team is invalid. Binds {@code shmem_team_translate_pe}.
     */
    @Binds("shmem_team_translate_pe")
    int translatePe(int pe, Team destTeam);

    /**
     * Collective over this team: a new team of the members {@code start + i * stride},
     * {@code i < size} (team numbers of this team; a negative stride reverses the order). Members
     * get the new team, other PEs an invalid one; if the team cannot be created (an invalid
     * triplet, no free synchronization slot on some member) every PE gets an invalid team whose
     * reason says why. The new team is usable at once. Binds {@code shmem_team_split_strided}.
     */
    @Binds("shmem_team_split_strided")
    Team splitStrided(int start, int stride, int size, TeamConfig config, long configMask);

    /**
     * Collective over this team: splits it into rows of {@code xrange} PEs ({@code x = pe % xrange},
     * {@code y = pe / xrange}) and returns this PE's row and column teams; if any of them cannot be
     * created, both are invalid on every PE. Binds {@code shmem_team_split_2d}.
     */
    @Binds("shmem_team_split_2d")
    Split2d split2d(int xrange, TeamConfig xConfig, long xMask, TeamConfig yConfig, long yMask);

    /**
     * A context whose operations address this team's PE numbers. Options: {@link Context#CTX_PRIVATE},
     * {@link Context#CTX_SERIALIZED}, {@link Context#CTX_NOSTORE}. Binds {@code shmem_team_create_ctx}.
     */
    @Binds("shmem_team_create_ctx")
    Context createCtx(long options);

    /**
     * A segment through which this PE can load and store {@code object} on team PE {@code pe}, or
     * null if that PE is not load/store reachable (or this team is invalid). Binds {@code shmem_team_ptr}.
     */
    @Binds("shmem_team_ptr")
    MemorySegment ptr(SymmetricObject object, int pe);

    /**
     * Collective over this team: returns when every member has called it (no completion of
     * outstanding operations). Binds {@code shmem_team_sync}.
     */
    @Binds("shmem_team_sync")
    void sync();

    /**
     * Collective over the team: destroys it and the shareable contexts made from it. Destroying a
     * predefined team throws {@link IllegalStateException}; an invalid team is left alone. Binds
     * {@code shmem_team_destroy}.
     */
    @Override
    @Binds("shmem_team_destroy")
    void close();
}
