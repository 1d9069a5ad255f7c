package org.shmem4j;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.shmem4j.bootstrap.InProcessHub;
import org.shmem4j.inprocess.InProcessJob;

/** Runs a test body on n in-process PEs with a small heap and a time bound. */
public final class InProcessTestSupport {
    private InProcessTestSupport() {
    }

    public static Map<String, String> env(String... keyValues) {
        Map<String, String> env = new HashMap<>();
        // The CI reruns the collective tests under SHMEM_*_ALGORITHM overrides, and the in-process
        // suites with the PEs spread over pseudo-nodes, and with every context batching
        // (SHMEM_BATCH_ALL, SHMEM_BATCH_BYTES, ...): pass those settings through.
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("SHMEM_") && k.endsWith("_ALGORITHM") || k.startsWith("SHMEM_BATCH_") || k.equals(InProcessHub.NODES)
                    || k.equals("SHMEM_NETWORK")) {
                env.put(k, v);
            }
        });
        env.put("SHMEM_SYMMETRIC_SIZE", "8m");
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        return env;
    }

    /**
     * {@link #env} with every PE on one node, whatever the run asks for: for tests of what only
     * holds there (the topology of pseudo-hosts, SHARED spanning the job, {@code shmem_ptr} to all).
     */
    public static Map<String, String> oneNodeEnv(String... keyValues) {
        Map<String, String> env = env(keyValues);
        env.put(InProcessHub.NODES, "1");
        return env;
    }

    public static void run(int npes, InProcessJob.Program program) {
        InProcessJob.run(npes, env(), Duration.ofSeconds(60), program).orThrow();
    }

    public static InProcessJob.Result runWith(int npes, Map<String, String> env, InProcessJob.Program program) {
        return InProcessJob.run(npes, env, Duration.ofSeconds(60), program);
    }
}
