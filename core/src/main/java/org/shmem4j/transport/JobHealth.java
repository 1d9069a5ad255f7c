package org.shmem4j.transport;

/**
 * What a transport asks and tells the job about its members' health: it checks, while it waits
 * long for a peer, whether the job is being torn down, and it reports a peer it lost so that the
 * job's failure names that peer rather than the PE that noticed.
 */
public interface JobHealth {
    /** Throws when the job is being torn down, so that no PE blocks forever on a peer that is gone. */
    void checkAlive();

    /**
     * The transport lost PE {@code pe} (its endpoint failed, or it cannot be reached); called just
     * before the operation that found it throws. Best effort, may be called more than once.
     */
    void peerLost(int pe, String reason);

    /** Health of a job that is never torn down from outside (tests of a transport alone). */
    JobHealth NONE = new JobHealth() {
        @Override
        public void checkAlive() {}

        @Override
        public void peerLost(int pe, String reason) {}
    };
}
