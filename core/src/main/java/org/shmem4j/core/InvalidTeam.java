package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import org.shmem4j.Context;
import org.shmem4j.SymmetricObject;
import org.shmem4j.Team;
import org.shmem4j.TeamConfig;

/** {@code SHMEM_TEAM_INVALID}, carrying the reason the calling PE got it. */
final class InvalidTeam implements Team {
    private final String reason;

    InvalidTeam(String reason) {
        this.reason = reason;
    }

    @Override
    public boolean isValid() {
        return false;
    }

    @Override
    public String invalidReason() {
        return reason;
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
        return new InvalidTeam("shmem_team_split_strided: the parent team is invalid (" + reason + ")");
    }

    @Override
    public Split2d split2d(int xrange, TeamConfig xConfig, long xMask, TeamConfig yConfig, long yMask) {
        Team invalid = new InvalidTeam("shmem_team_split_2d: the parent team is invalid (" + reason + ")");
        return new Split2d(invalid, invalid);
    }

    @Override
    public Context createCtx(long options) {
        throw unusable("shmem_team_create_ctx");
    }

    @Override
    public MemorySegment ptr(SymmetricObject object, int pe) {
        return null;
    }

    @Override
    public void sync() {
        throw unusable("shmem_team_sync");
    }

    @Override
    public org.shmem4j.core.coll.TeamCollectives collectives(String routine) {
        throw unusable(routine);
    }

    @Override
    public void close() {
        // shmem_team_destroy(SHMEM_TEAM_INVALID) does nothing
    }

    private IllegalStateException unusable(String routine) {
        return new IllegalStateException(routine + ": the team is invalid (" + reason + ")");
    }

    @Override
    public String toString() {
        return "Team[invalid: " + reason + "]";
    }
}
