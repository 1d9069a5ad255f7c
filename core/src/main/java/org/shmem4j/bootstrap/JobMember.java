package org.shmem4j.bootstrap;

/** The identity part every bootstrap shares: which PE of which job on which host and node. */
public abstract class JobMember implements Bootstrap {
    private final int rank;
    private final int size;
    private final String jobId;
    private final String hostId;
    private final String nodeId;

    protected JobMember(int rank, int size, String jobId, String hostId) {
        this(rank, size, jobId, hostId, hostId);
    }

    /** @param nodeId the physical node (see {@link Bootstrap#nodeId()}), which contains the host */
    protected JobMember(int rank, int size, String jobId, String hostId, String nodeId) {
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
        this.hostId = hostId;
        this.nodeId = nodeId;
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

    @Override
    public final String nodeId() {
        return nodeId;
    }

    /** Ends the process with {@code status} once what it printed is out (a job-level exit). */
    protected static void exitProcess(int status) {
        System.out.flush();
        System.err.flush();
        System.exit(status);
    }

    /** Which bootstrap this is and who the PE is (shown by {@code SHMEM_INFO}). */
    @Override
    public String toString() {
        Class<?> c = getClass().isAnonymousClass() ? getClass().getEnclosingClass() : getClass();
        return c.getSimpleName() + "[rank " + rank + " of " + size + ", job " + jobId + ", host " + hostId + ", node " + nodeId + "]";
    }
}
