package org.shmem4j.pe;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.shmem4j.bootstrap.JobAborted;
import org.shmem4j.bootstrap.launcher.LaunchEnv;
import org.shmem4j.bootstrap.launcher.LauncherBootstrap;
import org.shmem4j.core.Runtimes;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;

/**
 * How oshrun starts a PE: {@code PeMain <main class> <args>}. It ties the PE's life to the
 * launcher's from the first instant (a PE that has not called {@code shmem_init} yet has no
 * connection that could tell it the launcher died), then runs the program's {@code main}.
 */
public final class PeMain {
    /** The parameter lists a main may have, preferred first. */
    private static final MethodType[] MAIN_FORMS = {
        MethodType.methodType(void.class, String[].class), MethodType.methodType(void.class)};

    /**
     * System property {@code oshrun --jfr DIR} sets: the PE records itself with JFR (its default
     * settings and shmem4j's events) into {@code DIR/pe-<rank>.jfr}.
     */
    public static final String JFR_DIR_PROPERTY = "shmem4j.jfr.dir";

    private PeMain() {}

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: PeMain MAIN_CLASS [ARGS...] (started by oshrun)");
        }
        dieWithTheLauncher();
        nameThePeInUncaughtExceptions(System.getenv(LaunchEnv.RANK));
        Class<?> program = Class.forName(args[0], true, ClassLoader.getSystemClassLoader());
        PeMain.class.getModule().addReads(program.getModule()); // a program on the module path (oshrun -m)
        String[] programArgs = Arrays.copyOfRange(args, 1, args.length);
        MethodHandle main = entryPoint(program);
        Recording recording = recordIfAsked();
        LauncherBootstrap.programRunsOn(Thread.currentThread()); // an abort gives it time to report
        try {
            if (main.type().parameterCount() == 1) {
                main.invoke(programArgs);
            } else {
                main.invoke();
            }
        } finally {
            if (recording != null) {
                recording.stop(); // writes the file before the launcher sees this PE end
            }
        }
        // A PE that start_pes initialized is finalized when its program ends (spec 9.1.13).
        Runtimes.endOfProgram();
    }

    /**
     * With {@link #JFR_DIR_PROPERTY}, starts this PE's recording, written when the program's main
     * ends, or at exit if the program exits first ({@code shmem_global_exit}, {@code System.exit}).
     */
    private static Recording recordIfAsked() throws IOException, java.text.ParseException {
        String dir = System.getProperty(JFR_DIR_PROPERTY);
        if (dir == null) {
            return null;
        }
        String rank = System.getenv(LaunchEnv.RANK);
        Recording recording = new Recording(Configuration.getConfiguration("default"));
        recording.setName("shmem4j PE " + rank);
        recording.setDestination(Path.of(dir, "pe-" + rank + ".jfr"));
        recording.setDumpOnExit(true);
        recording.start();
        return recording;
    }

    /**
     * Halts this JVM as soon as its launcher is gone (even killed with SIGKILL): its parent ends,
     * or, with {@link LaunchEnv#LAUNCHER_STDIN}, its stdin reaches end of file.
     */
    private static void dieWithTheLauncher() {
        if ("1".equals(System.getenv(LaunchEnv.LAUNCHER_STDIN))) {
            Thread.ofPlatform().daemon().name("shmem4j-launcher-line").stackSize(128 << 10).start(() -> {
                var in = new FileInputStream(FileDescriptor.in); // unbuffered: nothing else reads it
                byte[] buf = new byte[256];
                try {
                    while (in.read(buf) >= 0) {
                        // the launcher sends nothing more; only the end matters
                    }
                } catch (IOException e) {
                    // a broken line is a gone launcher too
                }
                gone("its launcher's line (stdin) closed");
            });
            return;
        }
        ProcessHandle.current().parent().ifPresent(l -> l.onExit().thenRun(() -> gone("its launcher (pid " + l.pid() + ") is gone")));
    }

    /**
     * Uncaught exceptions (the program's main's too: the JVM reports them through the same handler)
     * are printed as the JVM would, prefixed with the PE: the launcher forwards every PE's output
     * into one stream, where an anonymous stack trace would not say whose it is.
     */
    private static void nameThePeInUncaughtExceptions(String rank) {
        boolean debug = debugRequested();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if ((Runtimes.reportedByLauncher(e) || JobAborted.in(e)) && !debug) {
                return; // oshrun printed the reason once for the job (under PeMain a JobAborted is its ABORT); the process still exits with status 1
            }
            synchronized (System.err) {
                System.err.print("PE " + rank + ": Exception in thread \"" + thread.getName() + "\" ");
                e.printStackTrace(System.err);
                System.err.flush();
            }
        });
    }

    /** SHMEM_DEBUG set: an init failure oshrun reported still prints its stack trace here (a bad value counts as unset). */
    private static boolean debugRequested() {
        try {
            return Parameters.from(System.getenv(), List.of(Params.DEBUG)).get(Params.DEBUG);
        } catch (RuntimeException badValue) {
            return false; // shmem_init reports it
        }
    }

    private static void gone(String why) {
        System.err.println("shmem4j: PE " + System.getenv(LaunchEnv.RANK) + ": " + why + "; exiting");
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }

    /**
     * The program's {@code main}: {@code static void main(String[])} as always, or the forms JDK 25
     * also launches (JEP 512): {@code static void main()}, and instance mains with or without
     * arguments on a class with a no-argument constructor.
     */
    private static MethodHandle entryPoint(Class<?> program) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(program, MethodHandles.lookup());
        for (MethodType type : MAIN_FORMS) {
            try {
                return lookup.findStatic(program, "main", type);
            } catch (NoSuchMethodException | IllegalAccessException e) {
                // try the next form
            }
        }
        for (MethodType type : MAIN_FORMS) {
            MethodHandle instanceMain;
            try {
                instanceMain = lookup.findVirtual(program, "main", type);
            } catch (NoSuchMethodException | IllegalAccessException e) {
                continue;
            }
            try {
                return instanceMain.bindTo(lookup.findConstructor(program, MethodType.methodType(void.class)).invoke());
            } catch (Throwable t) {
                throw new ReflectiveOperationException("cannot construct " + program.getName() + " to run its main", t);
            }
        }
        throw new NoSuchMethodException(program.getName() + " has no main method");
    }
}
