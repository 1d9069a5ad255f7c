package org.shmem4j.launcher;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.shmem4j.bootstrap.PeRanges;
import org.shmem4j.bootstrap.launcher.Wire;

/**
 * oshrun's heartbeat with the hosts that run PEs beyond this machine (ssh, Slurm). A host that
 * vanishes (power, network: no FIN, no RST) would otherwise be noticed only by ssh's keep-alives
 * or by traffic that fails. Every quarter of the timeout, one PING goes to one PE of each host, in
 * turn, and its reader thread answers PONG; any frame from any PE of the host counts as an answer.
 * A host silent for the whole timeout ends the job naming it; hosts are judged twice per PING, so
 * that a loss is named at most an eighth of the timeout after the timeout. The cost is two 5-byte frames per
 * host per interval, whatever the number of PEs (1,024 PEs on 32 hosts with the default 1 s: 256
 * frames a second at oshrun, none between PEs).
 *
 * <p>A PE pinged that does not answer (stopped, its JVM paused) is left out of the turn while its
 * PING waits (it answers that one when it runs again), so its host's other PEs keep the host
 * alive; once silent for {@value StoppedPeWatch#FIRST_REPORT_S} s it is reported, as a stopped PE
 * of this machine is, and {@code --stopped-timeout} ends the job. A host whose PEs are all silent
 * cannot be told from a vanished one: debugging every PE of a remote host needs a longer
 * {@code --heartbeat}, or 0 to turn it off.
 */
final class Heartbeat {
    /** Default silence after which a host is lost. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);
    /** Pings per timeout, and judgements per ping. */
    private static final int PINGS_PER_TIMEOUT = 4, JUDGEMENTS_PER_PING = 2;
    private static final byte[] PING = Wire.encodeFixed(new Wire.Ping());

    /** What the heartbeat knows of one host. */
    private static final class HostState {
        long heardAt;
        int next; // index of the next PE in turn

        HostState(long now) {
            heardAt = now;
        }
    }

    private final Job job;
    private final PrintStream log;
    private final long timeoutNs;
    private final Duration stoppedTimeout;
    private final List<Integer> watched = new ArrayList<>();
    // Touched by the heartbeat's thread only.
    private final Map<String, HostState> hosts = new HashMap<>();
    private final long[] pingedAt; // outstanding PING per rank, or Long.MIN_VALUE
    private final long[] nextReportS; // per rank, the next silence report, 0 when not silent
    private final boolean[] reported;
    private long ticks;

    /** A heartbeat of {@code timeout} for {@code job}; {@code stoppedTimeout} as {@link StoppedPeWatch}'s. */
    Heartbeat(Job job, PrintStream log, Duration timeout, Duration stoppedTimeout) {
        this.job = job;
        this.log = log;
        this.timeoutNs = timeout.toNanos();
        this.stoppedTimeout = stoppedTimeout;
        this.pingedAt = new long[job.size()];
        this.nextReportS = new long[job.size()];
        this.reported = new boolean[job.size()];
        java.util.Arrays.fill(pingedAt, Long.MIN_VALUE);
    }

    /** PE {@code rank} runs beyond this machine: its host is watched once it connected. */
    void watch(int rank) {
        watched.add(rank);
    }

    /** Ticks on {@code timer} (a thread of its own: a tick must never wait behind other work) until the job ends. */
    void start(ScheduledExecutorService timer) {
        long interval = Math.max(1, timeoutNs / (PINGS_PER_TIMEOUT * JUDGEMENTS_PER_PING));
        timer.scheduleWithFixedDelay(() -> {
            if (!job.isEnding()) {
                tick(System.nanoTime());
            }
        }, interval, interval, TimeUnit.NANOSECONDS);
    }

    /** One round at {@code now}: judge every host, then (every {@value #JUDGEMENTS_PER_PING} rounds) ping one PE of each. */
    void tick(long now) {
        boolean pings = ticks++ % JUDGEMENTS_PER_PING == 0;
        var byHost = new LinkedHashMap<String, List<Job.Live>>();
        for (int rank : watched) {
            Job.Live live = job.live(rank);
            if (live != null) {
                byHost.computeIfAbsent(live.host(), h -> new ArrayList<>()).add(live);
            }
        }
        for (var e : byHost.entrySet()) {
            HostState host = hosts.computeIfAbsent(e.getKey(), h -> new HostState(now));
            List<Job.Live> pes = e.getValue();
            for (Job.Live pe : pes) {
                host.heardAt = Math.max(host.heardAt, job.heardAt(pe.rank()));
            }
            if (now - host.heardAt >= timeoutNs) {
                lost(e.getKey(), pes, now - host.heardAt);
                return;
            }
            if (!pings) {
                continue;
            }
            if (!silences(pes, now)) {
                return; // the job ended
            }
            ping(host, pes, now);
        }
    }

    /** Reports the PEs of a live host that do not answer; false if that ended the job. */
    private boolean silences(List<Job.Live> pes, long now) {
        for (Job.Live pe : pes) {
            int r = pe.rank();
            boolean waiting = pingedAt[r] != Long.MIN_VALUE && job.heardAt(r) < pingedAt[r];
            if (!waiting) {
                if (reported[r]) {
                    log.println("oshrun: " + pe.who() + " answers again after " + seconds(job.heardAt(r) - pingedAt[r]) + " s");
                    log.flush();
                }
                reported[r] = false;
                nextReportS[r] = StoppedPeWatch.FIRST_REPORT_S;
                continue;
            }
            long silentNs = now - pingedAt[r];
            String what = "oshrun: " + pe.who() + " has not answered oshrun for " + seconds(silentNs)
                    + " s while its host answers (stopped, or its JVM paused)";
            if (stoppedTimeout != null && silentNs >= stoppedTimeout.toNanos()) {
                job.end(1, what + " (--stopped-timeout " + LaunchOptions.seconds(stoppedTimeout) + " s); ending the job", -1);
                return false;
            }
            if (nextReportS[r] == 0) {
                nextReportS[r] = StoppedPeWatch.FIRST_REPORT_S;
            }
            if (silentNs >= TimeUnit.SECONDS.toNanos(nextReportS[r])) {
                log.println(what + "; its peers may wait for it");
                log.flush();
                reported[r] = true;
                nextReportS[r] += Math.min(nextReportS[r], StoppedPeWatch.MAX_REPORT_INTERVAL_S);
            }
        }
        return true;
    }

    /** PINGs the host's next PE in turn that has no PING waiting. */
    private void ping(HostState host, List<Job.Live> pes, long now) {
        for (int i = 0; i < pes.size(); i++) {
            Job.Live pe = pes.get((host.next + i) % pes.size());
            int r = pe.rank();
            if (pingedAt[r] != Long.MIN_VALUE && job.heardAt(r) < pingedAt[r]) {
                continue; // silent: it answers the PING it has when it runs again
            }
            if (pe.conn().trySendFrame(PING)) {
                pingedAt[r] = now;
                host.next = (host.next + i + 1) % pes.size();
                return;
            }
        }
    }

    private void lost(String host, List<Job.Live> pes, long silentNs) {
        var ranks = pes.stream().map(Job.Live::rank).toList();
        job.hostLost(host, ranks, "oshrun: host " + host + " has not answered for " + seconds(silentNs) + " s ("
                + PeRanges.of(ranks) + " on it, e.g. " + pes.getFirst().who() + "): the host or its network is gone"
                + " (--heartbeat " + seconds(timeoutNs) + "); ending the job");
    }

    private static String seconds(long ns) {
        return String.format(java.util.Locale.ROOT, "%.1f", ns / 1e9);
    }
}
