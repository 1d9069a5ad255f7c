package org.shmem4j.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** oshrun as a careless user or a hostile machine would meet it. */
@Timeout(120)
class LauncherHardeningTest {

    @Test
    void moreThanOnePePerCoreWarnsUnlessIntended() {
        int n = Runtime.getRuntime().availableProcessors() + 1;
        var warned = Jobs.run("Hello -n " + n + " without --oversubscribe",
                Jobs.oshrun(List.of("-n", Integer.toString(n), "-cp", Jobs.peClasspath(), org.shmem4j.examples.Hello.class.getName())),
                Map.of(), Duration.ofSeconds(60));
        assertTrue(warned.exit() == 0 && warned.stderrText().contains("oversubscribed")
                && warned.stderrText().contains("--oversubscribe"), warned::describe);
        var quiet = Jobs.run("Hello -n " + n, Jobs.oshrun(n, org.shmem4j.examples.Hello.class), Map.of(), Duration.ofSeconds(60));
        assertTrue(quiet.exit() == 0 && quiet.stderr().isEmpty(), quiet::describe);
    }

    /** A PE dies with its launcher, even one that never called shmem_init and oshrun killed by SIGKILL. */

    @Test
    void pesThatNeverInitializedDieWhenOshrunIsKilled() throws Exception {
        int n = 2;
        try (var job = Jobs.start("NeverInitializes -n 2", Jobs.oshrun(n, NeverInitializes.class), Map.of())) {
            List<String> lines = job.awaitStdout(l -> l.stream().filter(s -> s.startsWith("pid ")).count() == n,
                    Duration.ofSeconds(60));
            List<ProcessHandle> pes = lines.stream().filter(s -> s.startsWith("pid "))
                    .map(s -> ProcessHandle.of(Long.parseLong(s.substring(4))).orElseThrow()).toList();
            long killedAt = System.nanoTime();
            job.process.toHandle().destroyForcibly(); // SIGKILL: oshrun cannot clean up
            job.process.waitFor(30, TimeUnit.SECONDS);
            for (ProcessHandle pe : pes) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (pe.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                boolean survived = pe.isAlive();
                if (survived) {
                    pe.destroyForcibly();
                }
                assertTrue(!survived, "PE pid " + pe.pid() + " outlived its killed launcher");
            }
            Jobs.record("PEs gone " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt) + " ms after SIGKILL of oshrun");
        }
    }
}
