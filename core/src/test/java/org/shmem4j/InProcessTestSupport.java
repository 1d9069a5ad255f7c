package org.shmem4j;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.shmem4j.inprocess.InProcessJob;

/** Runs a test body on n in-process PEs with a small heap and a time bound. */
public final class InProcessTestSupport {
    private InProcessTestSupport() {
    }

    public static Map<String, String> env(String... keyValues) {
        Map<String, String> env = new HashMap<>();
        // The CI reruns the collective tests under SHMEM_*_ALGORITHM overrides: pass them through.
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("SHMEM_") && k.endsWith("_ALGORITHM")) {
                env.put(k, v);
            }
        });
        env.put("SHMEM_SYMMETRIC_SIZE", "8m");
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        return env;
    }

    public static void run(int npes, InProcessJob.Program program) {
        InProcessJob.run(npes, env(), Duration.ofSeconds(60), program).orThrow();
    }

    public static InProcessJob.Result runWith(int npes, Map<String, String> env, InProcessJob.Program program) {
        return InProcessJob.run(npes, env, Duration.ofSeconds(60), program);
    }
}
