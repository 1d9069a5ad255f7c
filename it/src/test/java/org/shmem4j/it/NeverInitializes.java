package org.shmem4j.it;

/** A PE that prints its pid and then stays away from the library (as a program still starting up would). */
public final class NeverInitializes {
    private NeverInitializes() {}

    public static void main(String[] args) throws InterruptedException {
        System.out.println("pid " + ProcessHandle.current().pid());
        System.out.flush();
        Thread.sleep(120_000);
    }
}
