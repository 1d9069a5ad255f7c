package org.shmem4j.it;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.stream.Collectors;
import org.shmem4j.Shmem;
import org.shmem4j.bootstrap.launcher.LaunchEnv;

/**
 * A PE that reports what its JVM was given: {@code pe=<me> cpus=<n> gc=<collectors, _ for spaces>
 * maxheap=<bytes> node_cores=<SHMEM4J_NODE_CORES, or -> background_compilation=<true|false>}.
 */
public final class JvmReport {
    private JvmReport() {}

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            String gc = ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
                    .map(name -> name.replace(' ', '_')).collect(Collectors.joining(","));
            System.out.println("pe=" + shmem.myPe() + " cpus=" + Runtime.getRuntime().availableProcessors() + " gc=" + gc
                    + " maxheap=" + Runtime.getRuntime().maxMemory() + " node_cores="
                    + System.getenv().getOrDefault(LaunchEnv.NODE_CORES, "-") + " background_compilation="
                    + ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("BackgroundCompilation")
                            .getValue());
            shmem.barrierAll();
        }
    }
}
