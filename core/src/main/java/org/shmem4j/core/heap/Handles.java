package org.shmem4j.core.heap;

import java.lang.invoke.MethodHandles;
import org.shmem4j.SymmetricObject;

/**
 * The runtime's way into the symmetric objects of the API. Their constructors and their
 * {@link Allocation} are not public, so that a program can neither forge a handle nor reach the
 * heap's allocate and release through one; {@code org.shmem4j} installs its {@link Bridge} here
 * when {@link SymmetricObject} is initialized (the JDK's "shared secrets" pattern).
 */
public final class Handles {
    /** What the API package gives the runtime. */
    public interface Bridge {
        /** The heap block behind {@code object}. */
        Allocation allocation(SymmetricObject object);

        /** A new handle of class {@code type} on {@code allocation}. */
        <T extends SymmetricObject> T wrap(Class<T> type, Allocation allocation);
    }

    private static volatile Bridge bridge;

    private Handles() {
    }

    /** Called once, by {@link SymmetricObject}'s static initializer. */
    public static void install(Bridge b) {
        if (bridge != null) {
            throw new IllegalStateException("the symmetric object bridge is installed already");
        }
        bridge = b;
    }

    /** The heap block behind {@code object}. */
    public static Allocation allocation(SymmetricObject object) {
        return bridge().allocation(object);
    }

    /** A new handle of class {@code type} (a symmetric array class or SymmetricSegment) on {@code allocation}. */
    public static <T extends SymmetricObject> T wrap(Class<T> type, Allocation allocation) {
        return bridge().wrap(type, allocation);
    }

    private static Bridge bridge() {
        Bridge b = bridge;
        if (b == null) { // no handle was made yet: initializing SymmetricObject installs the bridge
            try {
                MethodHandles.lookup().ensureInitialized(SymmetricObject.class);
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
            b = bridge;
        }
        return b;
    }
}
