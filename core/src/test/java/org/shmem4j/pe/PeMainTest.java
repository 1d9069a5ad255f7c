package org.shmem4j.pe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** oshrun's entry point runs every form of main JDK 25 launches, and passes the program's exceptions through. */
class PeMainTest {
    static final List<Object> CALLS = new ArrayList<>();

    public static class StaticWithArgs {
        public static void main(String[] args) {
            CALLS.add(args);
        }
    }

    static class StaticNoArgs {
        static void main() {
            CALLS.add("static no args");
        }
    }

    static class InstanceWithArgs {
        void main(String[] args) {
            CALLS.add(args);
        }
    }

    static class InstanceNoArgs {
        void main() {
            CALLS.add("instance no args");
        }
    }

    public static class Throws {
        public static void main(String[] args) {
            throw new IllegalStateException("from the program");
        }
    }

    @Test
    void everyFormOfMainRuns() throws Throwable {
        CALLS.clear();
        PeMain.main(new String[] {StaticWithArgs.class.getName(), "a", "b"});
        PeMain.main(new String[] {StaticNoArgs.class.getName()});
        PeMain.main(new String[] {InstanceWithArgs.class.getName(), "c"});
        PeMain.main(new String[] {InstanceNoArgs.class.getName()});
        assertEquals(4, CALLS.size());
        assertArrayEquals(new String[] {"a", "b"}, (String[]) CALLS.get(0));
        assertEquals("static no args", CALLS.get(1));
        assertArrayEquals(new String[] {"c"}, (String[]) CALLS.get(2));
        assertEquals("instance no args", CALLS.get(3));
    }

    @Test
    void theProgramsExceptionComesOutUnwrapped() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PeMain.main(new String[] {Throws.class.getName()}));
        assertEquals("from the program", e.getMessage());
        assertThrows(NoSuchMethodException.class, () -> PeMain.main(new String[] {PeMainTest.class.getName()}));
    }
}
