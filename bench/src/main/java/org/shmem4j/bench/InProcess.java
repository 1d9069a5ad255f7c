package org.shmem4j.bench;

import java.time.Duration;
import org.shmem4j.inprocess.InProcessJob;

/**
 * Quick runs without a launcher: {@code java -cp ... org.shmem4j.bench.InProcess [-n N] PROGRAM}
 * runs {@link Main} with its PEs as <b>threads of this one JVM</b> ({@link InProcessJob}), not as
 * processes. The data path is the real one (every PE maps the others' heap files), but the PEs
 * share one JIT, one heap and one GC, and the OS is free to put both threads on one core, so the
 * figures are only indicative: measure with {@code bin/oshrun} (bench/run.sh) for real numbers.
 * Knobs come from the environment as for {@link Main}; the job is bounded to 10 minutes.
 */
public final class InProcess {
    private InProcess() {
    }

    public static void main(String[] args) {
        int npes = 2;
        int i = 0;
        if (args.length >= 2 && args[0].equals("-n")) {
            npes = Integer.parseInt(args[1]);
            i = 2;
        }
        if (args.length - i != 1) {
            System.err.println("usage: org.shmem4j.bench.InProcess [-n NPES] " + String.join("|", Main.PROGRAMS) + "|all");
            System.exit(2);
        }
        String program = args[i];
        Knobs knobs = Knobs.fromEnvironment();
        InProcessJob.Result result = InProcessJob.run(npes, System.getenv(), Duration.ofMinutes(10), () -> {
            int s = Main.run(program, knobs);
            if (s != 0) {
                throw new IllegalStateException(program + " ended with status " + s);
            }
        });
        if (result.timedOut()) {
            System.err.println("in-process job: " + result.failures().getFirst());
        }
        result.failureGroups().forEach(g -> System.err.println("in-process job: " + g));
        System.exit(result.timedOut() ? 124 : result.status());
    }
}
