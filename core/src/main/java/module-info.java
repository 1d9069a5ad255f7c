/**
 * shmem4j, OpenSHMEM 1.6 for Java. Programs see the API ({@code org.shmem4j}) and in-process jobs
 * ({@code org.shmem4j.inprocess}); the runtime, transports and bootstraps stay inside. The
 * launcher ({@code oshrun}) and the JUnit extension get what they use of the bootstrap, by name.
 */
module org.shmem4j {
    exports org.shmem4j;
    exports org.shmem4j.inprocess;

    // oshrun: the library's location (Bootstrap), the launcher protocol and the PE's entry point,
    // the --info and --version reports; @ShmemTest: the in-process job's pseudo-node variable
    exports org.shmem4j.bootstrap to org.shmem4j.launcher, org.shmem4j.junit;
    exports org.shmem4j.bootstrap.launcher to org.shmem4j.launcher;
    exports org.shmem4j.pe to org.shmem4j.launcher;
    exports org.shmem4j.core.info to org.shmem4j.launcher;
    exports org.shmem4j.core.param to org.shmem4j.launcher; // oshrun reads SHMEM_INFO as the PEs do

    // JFR events are optional: a runtime image without jdk.jfr records nothing (core.jfr.Profiler)
    requires static jdk.jfr;

    // network engines for PEs on other nodes, chosen by SHMEM_NETWORK
    uses org.shmem4j.transport.NetworkProvider;
    provides org.shmem4j.transport.NetworkProvider with org.shmem4j.transport.ucx.UcxProvider;
}
