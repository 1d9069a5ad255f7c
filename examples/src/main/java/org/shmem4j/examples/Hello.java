package org.shmem4j.examples;

import org.shmem4j.Shmem;

/** Every PE greets: {@code Hello from PE <me> of <n>}. The first program to run with {@code oshrun}. */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            System.out.printf("Hello from PE %d of %d%n", me, n);
            Checks.check(shmem, n >= 1 && me >= 0 && me < n, "PE number " + me + " is outside [0, " + n + ")");
        }
    }
}
