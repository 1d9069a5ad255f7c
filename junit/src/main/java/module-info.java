/** {@code @ShmemTest}: a JUnit 5 test method run as an in-process shmem4j job at several PE counts. */
module org.shmem4j.junit {
    requires transitive org.shmem4j;
    requires transitive org.junit.jupiter.api;
    requires org.junit.platform.commons;

    exports org.shmem4j.junit;
}
