package org.shmem4j.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated method as an OpenSHMEM job whose PEs are threads of the test's JVM
 * ({@link org.shmem4j.inprocess.InProcessJob}), once per entry of {@link #pes()}; each run is its
 * own test, named {@code pes=N}. Every PE calls the method: a {@link org.shmem4j.Shmem} parameter
 * receives that PE's library, initialized before the call and finalized after it; without one, the
 * method calls {@code Shmem.init()} itself.
 *
 * <pre>{@code
 * @ShmemTest(pes = {1, 2, 3, 5})
 * void ringSum(Shmem shmem) {
 *     long sum = MyKernels.ringSum(shmem, shmem.myPe());        // the user's own SPMD code
 *     int n = shmem.nPes();
 *     assertEquals((long) n * (n - 1) / 2, sum, "PE " + shmem.myPe());
 * }
 * }</pre>
 *
 * <p>A run fails if any PE throws; the failure lists every PE that failed, by rank, with each PE's
 * exception attached (as a suppressed exception), not only the first one. A run that outlives
 * {@link #timeout()} fails naming its PE count, with the stacks of the PEs still running.
 *
 * <p><b>The PEs share one JVM.</b> Static fields, and the fields of the test instance (one
 * instance serves every PE of a run), are shared between the PEs, where separate processes would
 * each have their own: keep per-PE state in local variables or in symmetric objects, and make
 * anything shared thread-safe.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(ShmemTestExtension.class)
public @interface ShmemTest {
    /** The PE counts to run the method at, one test each (at least 1 PE each). */
    int[] pes() default {1, 2, 4};

    /**
     * Pseudo-hosts the PEs are split into, in blocks as {@code oshrun --hosts} does (capped at the
     * PE count): teams SHARED, host and leaders, {@code shmem_ptr} and the collective policy follow
     * them, so node-aware code is exercised on one machine. 1 (the default): one host.
     */
    int hosts() default 1;

    /**
     * Pseudo-nodes the PEs are split into (capped at the PE count), as {@code oshrun --nodes}: PEs of
     * different pseudo-nodes do not share memory and talk through the network engine
     * ({@code SHMEM_NETWORK}, UCX by default, which must then be installed). 1 (the default): one node.
     */
    int nodes() default 1;

    /** The bound on each run, in {@link #unit()}s; a run still going then fails with the PEs' stacks. */
    long timeout() default 60;

    /** The unit of {@link #timeout()}. */
    TimeUnit unit() default TimeUnit.SECONDS;

    /**
     * Environment variables of the job, {@code NAME=value} each, on top of the process's
     * (e.g. {@code "SHMEM_SYMMETRIC_SIZE=16m"}, {@code "SHMEM_DEBUG=1"}).
     */
    String[] env() default {};
}
