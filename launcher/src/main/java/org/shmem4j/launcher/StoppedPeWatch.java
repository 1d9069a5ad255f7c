package org.shmem4j.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Watches the PEs running on this machine for being stopped: a stopped PE (SIGSTOP, ^Z, a
 * debugger at a breakpoint) holds its peers in their waits, silently, as a slow one would. Its
 * kernel state says it ({@code /proc/PID/stat}: {@code T} stopped by a signal, {@code t} stopped
 * while traced), so oshrun reports it by rank and host once it has been stopped for
 * {@value #FIRST_REPORT_S} s, again at doubling intervals (at most every
 * {@value #MAX_REPORT_INTERVAL_S} s), and once more when it resumes. It ends the job only with
 * {@code --stopped-timeout}: a debugger stops PEs on purpose. A PE busy outside the library (not
 * stopped) is not told from a slow one.
 */
final class StoppedPeWatch {
    /** How often the PEs' states are read. */
    static final long POLL_MS = 500;
    /** A PE stopped this long is reported. */
    static final long FIRST_REPORT_S = 5;
    /** Longest interval between two reports of one stop. */
    static final long MAX_REPORT_INTERVAL_S = 600;

    private record Watched(int rank, long pid, String host) {}

    /** One stop of one PE. */
    private static final class Stop {
        final long since = System.nanoTime();
        char state;
        long nextReportS = FIRST_REPORT_S;
        boolean reported;

        Stop(char state) {
            this.state = state;
        }
    }

    private final Job job;
    private final PrintStream log;
    private final Duration timeout;
    private final List<Watched> watched = new CopyOnWriteArrayList<>();
    /** Stops in progress, by rank; touched by the timer thread only. */
    private final Map<Integer, Stop> stops = new HashMap<>();

    /** Reports to {@code log}; ends {@code job} after {@code timeout} stopped (null: never). */
    StoppedPeWatch(Job job, PrintStream log, Duration timeout) {
        this.job = job;
        this.log = log;
        this.timeout = timeout;
    }

    /** Watches PE {@code rank}, the process {@code pid} of this machine, named as running on {@code host}. */
    void watch(int rank, long pid, String host) {
        watched.add(new Watched(rank, pid, host));
    }

    /** Polls every {@value #POLL_MS} ms on {@code timer} until the job ends. */
    void start(ScheduledExecutorService timer) {
        timer.scheduleWithFixedDelay(() -> {
            if (!job.isEnding()) {
                poll(System.nanoTime());
            }
        }, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
    }

    /** One look at every watched PE at {@code now} ({@link System#nanoTime}). */
    void poll(long now) {
        for (Watched w : watched) {
            char state = state(w.pid());
            Stop stop = stops.get(w.rank());
            if (state != 'T' && state != 't') { // running, sleeping, or gone (its exit is judged elsewhere)
                if (stop != null) {
                    stops.remove(w.rank());
                    if (stop.reported) {
                        log.println("oshrun: " + name(w) + " resumed after " + seconds(now - stop.since) + " s stopped");
                        log.flush();
                    }
                }
                continue;
            }
            if (stop == null) {
                stops.put(w.rank(), stop = new Stop(state));
            }
            stop.state = state; // a stop that a debugger then attached to stays one stop
            long elapsedNs = now - stop.since;
            String what = name(w) + " has been stopped " + how(state);
            if (timeout != null && elapsedNs >= timeout.toNanos()) {
                job.end(1, "oshrun: " + what + " for " + seconds(elapsedNs) + " s (--stopped-timeout "
                        + LaunchOptions.seconds(timeout) + " s); ending the job", -1);
                return;
            }
            if (elapsedNs >= TimeUnit.SECONDS.toNanos(stop.nextReportS)) {
                log.println("oshrun: " + what + " for " + seconds(elapsedNs) + " s; its peers wait for it"
                        + (timeout == null ? " (--stopped-timeout SECONDS would end the job)" : ""));
                log.flush();
                stop.reported = true;
                stop.nextReportS += Math.min(stop.nextReportS, MAX_REPORT_INTERVAL_S);
            }
        }
    }

    private static String name(Watched w) {
        return "PE " + w.rank() + " (pid " + w.pid() + ") on " + w.host();
    }

    private static String how(char state) {
        return state == 't' ? "by a debugger (traced)" : "(SIGSTOP or SIGTSTP)";
    }

    /** Whole seconds, or tenths below ten. */
    private static String seconds(long ns) {
        double s = ns / 1e9;
        return s >= 10 ? Long.toString((long) s) : String.format(java.util.Locale.ROOT, "%.1f", s);
    }

    /**
     * The state letter of process {@code pid} ({@code R}, {@code S}, {@code T}, {@code t}, ...),
     * or 0 when it is gone or its stat cannot be read.
     */
    static char state(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return stateOf(stat);
    }

    /** The state field of a {@code /proc/PID/stat} line: the command name in parentheses may hold anything, so after its last ')'. */
    static char stateOf(String stat) {
        int close = stat.lastIndexOf(')');
        return close < 0 || close + 2 >= stat.length() ? 0 : stat.charAt(close + 2);
    }
}
