/**
 * {@code oshrun}, the launcher of shmem4j jobs. Its entry point is
 * {@link org.shmem4j.launcher.Oshrun}; it uses the library's bootstrap internals, which the
 * library exports to this module only.
 */
module org.shmem4j.launcher {
    requires org.shmem4j;

    exports org.shmem4j.launcher;
}
