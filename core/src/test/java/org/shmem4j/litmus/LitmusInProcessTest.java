package org.shmem4j.litmus;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.inprocess.InProcessJob;
import org.shmem4j.transport.ucx.UcxAvailable;

/**
 * The randomized litmus harness of the memory model (docs/memory-model.md): generated programs of
 * puts, AMOs, puts-with-signal, signals, fences, quiets and pe_quiets on two contexts, between PEs
 * of which some are mapped to each other and some remote, checked against what the spec's Table 14
 * (and shmem4j's written promises) guarantee. The CI set runs a fixed seed range on every
 * configuration; {@code -Dshmem4j.litmus.seeds=5000} (or {@code SHMEM4J_LITMUS_SEEDS}) runs more,
 * {@code -Dshmem4j.litmus.configs=id,..} restricts the configurations, and
 * {@code -Dshmem4j.litmus.replay=id:seed,..} runs just those programs. Seeds that once failed stay
 * in {@link #REGRESSIONS}, which always run.
 */
class LitmusInProcessTest {
    /** Rounds per program: each round's writes race the observers of the round before. */
    static final int ROUNDS = 12;
    /** Seeds 1..CI_SEEDS run on every configuration in the README's test command. */
    private static final int CI_SEEDS = 60;
    /** Seeds per job (one test invocation, bounded by the default 300 s) in the long mode. */
    private static final int SEEDS_PER_JOB = 40;
    private static final Duration JOB_BOUND = Duration.ofSeconds(240);

    /**
     * Mixed routes: one node with every AMO on the network, and 2-4 PEs on 2 nodes, over each
     * engine; and 2 PEs on 2 nodes over UCX with every context batching (issue 26).
     */
    static final List<Config> CONFIGS = Stream.of("2pe1n", "2pe2n-deferred", "3pe2n-deferred", "4pe2n-deferred",
            "2pe1n-deferred-nic+atomics", "4pe1n-deferred-nic+atomics", "3pe2n-deferred-nic+atomics",
            "4pe2n-deferred-nic+atomics", "2pe2n-ucx", "3pe2n-ucx", "4pe2n-ucx+atomics", "2pe2n-ucx+session").map(Config::parse).toList();

    /**
     * Programs that once failed (config id and seed), always run. All found defect 1 of issue 24:
     * with SHMEM_NETWORK_ATOMICS=1 a fence did not order an AMO, signal or put-with-signal (which
     * go through the network even to mapped PEs) before a later flag p to that mapped PE.
     */
    static final List<Case> REGRESSIONS = Stream.of(
            "4pe1n-deferred-nic+atomics:5", // signal_add, fence, p
            "4pe1n-deferred-nic+atomics:6", // atomic_add, fence, p
            "4pe1n-deferred-nic+atomics:10", // atomic_fetch_add_nbi, fence, p on the created context
            "4pe1n-deferred-nic+atomics:16", // signal_set, fence, p to the PE itself
            "3pe2n-deferred-nic+atomics:13", // put_signal (add), fence, p
            "4pe2n-deferred-nic+atomics:5", // put_signal_nbi (add), fence, p
            "4pe2n-ucx+atomics:5", // the same over UCX
            "4pe2n-ucx+atomics:16").map(Case::parse).toList();

    /** A program to run: a configuration and a seed. */
    record Case(Config config, long seed) {
        static Case parse(String idAndSeed) {
            int colon = idAndSeed.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("a replay is id:seed, e.g. 4pe2n-deferred:17, not '" + idAndSeed + "'");
            }
            return new Case(Config.parse(idAndSeed.substring(0, colon)), Long.parseLong(idAndSeed.substring(colon + 1).trim()));
        }
    }

    /** One job: programs of several seeds run one after the other on one configuration. */
    record Batch(Config config, List<Long> seeds) {
        @Override
        public String toString() {
            return config.id() + " seeds " + (seeds.size() == 1 ? seeds.getFirst() : seeds.getFirst() + "-" + seeds.getLast());
        }
    }

    private static String setting(String property, String variable) {
        String v = System.getProperty(property);
        return v != null && !v.isBlank() ? v : System.getenv(variable);
    }

    static Stream<Batch> randomPrograms() {
        String replay = setting("shmem4j.litmus.replay", "SHMEM4J_LITMUS_REPLAY");
        if (replay != null) {
            return Arrays.stream(replay.split(",")).map(Case::parse).map(c -> new Batch(c.config(), List.of(c.seed())));
        }
        String configs = setting("shmem4j.litmus.configs", "SHMEM4J_LITMUS_CONFIGS");
        List<Config> chosen = configs == null ? CONFIGS : Arrays.stream(configs.split(",")).map(Config::parse).toList();
        String seeds = setting("shmem4j.litmus.seeds", "SHMEM4J_LITMUS_SEEDS");
        long first = 1, last = CI_SEEDS;
        if (seeds != null) {
            String[] range = seeds.trim().split("-");
            first = range.length == 2 ? Long.parseLong(range[0]) : 1;
            last = Long.parseLong(range[range.length - 1]);
        }
        List<Long> all = LongStream.rangeClosed(first, last).boxed().toList();
        List<Batch> batches = new ArrayList<>();
        for (int from = 0; from < all.size(); from += SEEDS_PER_JOB) {
            List<Long> part = all.subList(from, Math.min(all.size(), from + SEEDS_PER_JOB));
            chosen.forEach(c -> batches.add(new Batch(c, part)));
        }
        return batches.stream();
    }

    static Stream<Batch> regressions() {
        return REGRESSIONS.stream().map(c -> new Batch(c.config(), List.of(c.seed())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void randomPrograms(Batch batch) {
        run(batch);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void regressions(Batch batch) {
        run(batch);
    }

    /** Runs the batch's programs in one in-process job; a failure names the seed and prints the program. */
    static void run(Batch batch) {
        Config config = batch.config();
        if (config.usesNetwork() && config.network().equals("ucx")) {
            UcxAvailable.requireUcx("litmus programs over UCX");
        }
        AtomicLong current = new AtomicLong(batch.seeds().getFirst());
        AtomicLong checks = new AtomicLong();
        long start = System.nanoTime();
        InProcessJob.Result r = InProcessJob.run(config.placement().npes(), config.env(), JOB_BOUND, () -> {
            // No try-with-resources: a PE whose check fails must leave without finalizing, which
            // would wait for peers that wait for its flags; the job then ends the others' waits.
            Shmem shmem = Shmem.init();
            Context created = shmem.ctxCreate(0);
            for (long seed : batch.seeds()) {
                if (shmem.myPe() == 0) {
                    current.set(seed); // every program starts and ends with a barrier: all PEs are on this seed
                }
                checks.addAndGet(new Runner(shmem, created, Oracle.plan(Generator.generate(seed, config.placement(), ROUNDS))).run());
            }
            created.close();
            shmem.close();
        });
        if (r.status() != 0 || r.timedOut()) {
            fail(report(config, current.get(), r));
        }
        System.out.printf("litmus %s: %d programs of %d rounds passed, %d checks (%.1f s)%n", batch, batch.seeds().size(),
                ROUNDS, checks.get(), (System.nanoTime() - start) / 1e9);
    }

    private static String report(Config config, long seed, InProcessJob.Result r) {
        Program program = Generator.generate(seed, config.placement(), ROUNDS);
        String failures = r.failuresByPe().entrySet().stream()
                .map(e -> "  PE " + e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining("\n"));
        return "litmus program of seed " + seed + " failed on " + config + (r.timedOut() ? " (timed out)" : "") + "\n"
                + "replay: bin/mvn25 -o -q -pl core test -Dtest=LitmusInProcessTest -Dsurefire.failIfNoSpecifiedTests=false"
                + " -Dshmem4j.litmus.replay=" + config.id() + ":" + seed + "\n"
                + program.render()
                + "failures (the first is the finding; the others' waits end with the job):\n" + failures + "\n"
                + (r.timedOut() ? "time-out: " + r.failures().getFirst() : "");
    }
}
