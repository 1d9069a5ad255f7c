package org.shmem4j.bootstrap;

/** The identity part every bootstrap shares: which PE of which job on which host. */
public abstract class JobMember implements Bootstrap {
    private final int rank;
    private final int size;
    private final String jobId;
    private final String hostId;

    protected JobMember(int rank, int size, String jobId, String hostId) {
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
        this.hostId = hostId;
    }

    @Override
    public final int rank() {
        return rank;
    }

    @Override
    public final int size() {
        return size;
    }

    @Override
    public final String jobId() {
        return jobId;
    }

    @Override
    public final String hostId() {
        return hostId;
    }
}
