package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import org.shmem4j.Context;
import org.shmem4j.SymmetricObject;
import org.shmem4j.Team;
import org.shmem4j.TeamConfig;

/**
 * {@code SHMEM_TEAM_INVALID}: one instance, so that {@code team == Team.INVALID} works as the
 * spec's equality comparison does. Why a thread last got it (a failed split, a PE outside the new
 * team, not a host leader) is kept per thread, like C's nonzero return code, for
 * {@link #invalidReason()}.
 */
public final class InvalidTeam extends TeamBase implements Team {
    static final InvalidTeam INSTANCE = new InvalidTeam();
    private static final String NO_REASON = "SHMEM_TEAM_INVALID";
    private static final ThreadLocal<String> LAST_REASON = ThreadLocal.withInitial(() -> NO_REASON);

    private InvalidTeam() {
    }

    /** {@link #INSTANCE}, recording {@code reason} as the calling thread's last reason. */
    static Team because(String reason) {
        LAST_REASON.set(reason);
        return INSTANCE;
    }

    @Override
    public boolean isValid() {
        return false;
    }

    /** Why the calling thread last got {@code SHMEM_TEAM_INVALID} from the library. */
    @Override
    public String invalidReason() {
        return LAST_REASON.get();
    }

    @Override
    public int myPe() {
        return -1;
    }

    @Override
    public int nPes() {
        return -1;
    }

    @Override
    public TeamConfig getConfig() {
        throw unusable("shmem_team_get_config");
    }

    @Override
    public int translatePe(int pe, Team destTeam) {
        return -1;
    }

    @Override
    public Team splitStrided(int start, int stride, int size, TeamConfig config, long configMask) {
        return because("shmem_team_split_strided: the parent team is SHMEM_TEAM_INVALID");
    }

    @Override
    public Split2d split2d(int xrange, TeamConfig xConfig, long xMask, TeamConfig yConfig, long yMask) {
        return new Split2d(because("shmem_team_split_2d: the parent team is SHMEM_TEAM_INVALID"), INSTANCE);
    }

    @Override
    public Context createCtx(long options) {
        throw unusable("shmem_team_create_ctx");
    }

    @Override
    public java.util.Optional<Context> tryCreateCtx(long options) {
        return java.util.Optional.empty();
    }

    @Override
    public MemorySegment ptr(SymmetricObject object, int pe) {
        return null;
    }

    @Override
    org.shmem4j.core.coll.TeamCollectives collectives(String routine) {
        throw unusable(routine);
    }

    @Override
    public void close() {
        // shmem_team_destroy(SHMEM_TEAM_INVALID) does nothing
    }

    private IllegalStateException unusable(String routine) {
        String reason = LAST_REASON.get();
        return new IllegalStateException(routine + ": the team is SHMEM_TEAM_INVALID"
                + (reason == NO_REASON ? "" : " (this thread last got it because " + reason + ")"));
    }

    @Override
    public String toString() {
        return "Team[SHMEM_TEAM_INVALID]";
    }
}
