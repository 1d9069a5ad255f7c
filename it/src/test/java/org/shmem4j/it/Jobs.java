package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.shmem4j.Shmem;
import org.shmem4j.examples.Hello;
import org.shmem4j.launcher.Oshrun;

/**
 * Runs real multi-JVM jobs: {@code java ... org.shmem4j.launcher.Oshrun ...} (or the
 * {@code bin/oshrun} script) as a child process of the test JVM, with its stdout and stderr read
 * on threads and every wait bounded. A job that outlives its bound is killed with its whole
 * process tree and the test fails with what the job printed.
 */
final class Jobs {
    /** Where the PEs' heap files live (the launcher's default {@code SHMEM_SHM_DIR}). */
    static final Path SHM_DIR = Path.of("/dev/shm");
    /** Default bound of a job's wall time (the normal jobs take about a second). */
    static final Duration BOUND = Duration.ofSeconds(30);

    private Jobs() {}

    /** The jar or classes directory {@code c} was loaded from. */
    static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The class path of the PE programs: the examples and this module's test programs. */
    static String peClasspath() {
        return String.join(File.pathSeparator, location(Hello.class), location(Jobs.class));
    }

    /** {@code java ... Oshrun <oshrunArgs>}, with the launcher and core from this JVM's class path. */
    static List<String> oshrun(List<String> oshrunArgs) {
        var cmd = new ArrayList<String>(List.of(javaExecutable(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", String.join(File.pathSeparator, location(Oshrun.class), location(Shmem.class)),
                Oshrun.class.getName()));
        cmd.addAll(oshrunArgs);
        return cmd;
    }

    /** {@code oshrun -n n -cp <pe class path> main args...}. */
    static List<String> oshrun(int n, Class<?> main, String... args) {
        return oshrun(n, main.getName(), args);
    }

    /**
     * {@code SHMEM4J_IT_NODES=K}: the jobs' PEs are spread over K pseudo-nodes ({@code oshrun
     * --nodes}, at most one per PE), so peers of other nodes are reached through the network engine
     * {@code SHMEM_NETWORK} names (passed on to the jobs). 0 (unset): one node.
     */
    static final int PSEUDO_NODES = Integer.parseInt(System.getenv().getOrDefault("SHMEM4J_IT_NODES", "0"));

    /** The tests run more PEs than this machine has cores on purpose: no oversubscription warning. */
    static List<String> oshrun(int n, String main, String... args) {
        var a = new ArrayList<String>(List.of("-n", Integer.toString(n), "--oversubscribe"));
        if (PSEUDO_NODES > 1 && n > 1) {
            a.addAll(List.of("--nodes", Integer.toString(Math.min(PSEUDO_NODES, n))));
        }
        a.addAll(List.of("-cp", peClasspath(), main));
        a.addAll(List.of(args));
        return oshrun(a);
    }

    /** What a finished job did. */
    record Result(String name, int exit, List<String> stdout, List<String> stderr, long wallMillis) {
        String describe() {
            return name + ": exit " + exit + " after " + wallMillis + " ms\n--- stdout\n" + String.join("\n", stdout)
                    + "\n--- stderr\n" + String.join("\n", stderr) + "\n---";
        }

        String stderrText() {
            return String.join("\n", stderr);
        }
    }

    /** Runs {@code command} with {@code env} added and waits for it, at most {@code bound}. */
    static Result run(String name, List<String> command, Map<String, String> env, Duration bound) {
        try (var job = start(name, command, env)) {
            return job.await(bound);
        }
    }

    static Result run(String name, List<String> command) {
        return run(name, command, Map.of(), BOUND);
    }

    /**
     * Skips the test {@code what} because of {@code missing} (unless null), saying so on stderr;
     * where the environment variable {@code requiredBy} is 1 (CI, which installs everything) the
     * skip is a failure instead.
     */
    static void require(String requiredBy, String what, String missing) {
        if (missing == null) {
            return;
        }
        String message = what + " NOT TESTED: " + missing;
        if ("1".equals(System.getenv(requiredBy))) {
            fail(message + " (" + requiredBy + "=1)");
        }
        System.err.println("WARNING: " + message);
        org.junit.jupiter.api.Assumptions.abort(message);
    }

    /**
     * Starts {@code command}; SHMEM_* and SHMEM4J_* of this JVM's environment are not passed on
     * (but for {@code SHMEM_NETWORK} when the jobs run on pseudo-nodes).
     */
    static Running start(String name, List<String> command, Map<String, String> env) {
        var pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> k.startsWith("SHMEM") && !(PSEUDO_NODES > 1 && k.equals("SHMEM_NETWORK")));
        pb.environment().putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        try {
            return new Running(name, pb.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** Collects the lines of one stream on a daemon thread. */
    static final class Lines {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Thread thread;

        Lines(InputStream in, String name) {
            thread = Thread.ofPlatform().daemon().name(name).start(() -> {
                try (var r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null;) {
                        lines.add(l);
                    }
                } catch (IOException e) {
                    lines.add("<read error: " + e + ">");
                }
            });
        }

        List<String> snapshot(long joinMillis) {
            try {
                thread.join(joinMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.copyOf(lines);
        }
    }

    /** A started job. Closing it kills whatever is left of its process tree. */
    static final class Running implements AutoCloseable {
        final String name;
        final Process process;
        final Lines out, err;
        final long startNanos = System.nanoTime();

        Running(String name, Process process) {
            this.name = name;
            this.process = process;
            this.out = new Lines(process.getInputStream(), name + "-stdout");
            this.err = new Lines(process.getErrorStream(), name + "-stderr");
        }

        /** Waits until the stdout lines satisfy {@code ready}; fails (killing the job) after {@code bound}. */
        List<String> awaitStdout(Predicate<List<String>> ready, Duration bound) {
            long deadline = System.nanoTime() + bound.toNanos();
            while (true) {
                var now = List.copyOf(out.lines);
                if (ready.test(now)) {
                    return now;
                }
                if (!process.isAlive()) {
                    fail(name + " ended before it was ready:\n" + collect(1000).describe());
                }
                if (System.nanoTime() - deadline > 0) {
                    killTree();
                    fail(name + " was not ready within " + bound + ":\n" + collect(1000).describe());
                }
                sleep(10);
            }
        }

        /** Waits for the job to end, at most {@code bound}; on time-out kills it and fails. */
        Result await(Duration bound) {
            boolean ended;
            try {
                ended = process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ended = false;
            }
            if (!ended) {
                killTree();
                fail(name + " did not end within " + bound + "; killed it:\n" + collect(2000).describe());
            }
            Result r = collect(5000);
            record(r.name() + ": exit " + r.exit() + " in " + r.wallMillis() + " ms");
            return r;
        }

        private Result collect(long joinMillis) {
            long wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
            int exit;
            try {
                exit = process.waitFor(2, TimeUnit.SECONDS) ? process.exitValue() : -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exit = -1;
            }
            return new Result(name, exit, out.snapshot(joinMillis), err.snapshot(joinMillis), wall);
        }

        void killTree() {
            var tree = new ArrayList<ProcessHandle>();
            process.descendants().forEach(tree::add);
            tree.add(process.toHandle());
            tree.forEach(ProcessHandle::destroyForcibly);
        }

        @Override
        public void close() {
            if (process.isAlive() || process.descendants().findAny().isPresent()) {
                killTree();
            }
        }
    }

    // ---- /dev/shm ------------------------------------------------------------------------

    /** The names of the {@code shmem4j-*} files in {@link #SHM_DIR} now. */
    static Set<String> shmFiles() {
        var names = new HashSet<String>();
        try (Stream<Path> s = Files.list(SHM_DIR)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("shmem4j-")).forEach(names::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /**
     * The {@code shmem4j-*} files that were not there {@code before} and still exist a moment
     * later. Heap files of live jobs are unlinked right after start-up, so a file that stays is a
     * leak (a job of another build on this machine may show up transiently: hence the second look).
     */
    static Set<String> leakedShmFiles(Set<String> before) {
        var fresh = new HashSet<>(shmFiles());
        fresh.removeAll(before);
        if (fresh.isEmpty()) {
            return fresh;
        }
        sleep(500);
        fresh.retainAll(shmFiles());
        return fresh;
    }

    // ---- misc -----------------------------------------------------------------------------

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Prints {@code line} and appends it to {@code target/it-timings.txt} (the measured times). */
    static synchronized void record(String line) {
        System.out.println("[it] " + line);
        try {
            Path target = Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "target");
            if (Files.isDirectory(target)) {
                Files.writeString(target.resolve("it-timings.txt"), line + "\n", StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
        } catch (IOException ignored) {
            // the console line is enough
        }
    }
}
