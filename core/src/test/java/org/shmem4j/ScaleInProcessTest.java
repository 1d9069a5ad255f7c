package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.shmem4j.inprocess.InProcessJob;

/**
 * An in-process job of 1,024 PEs with default settings but the region sizes (issue 25): init,
 * barrier, a sum reduction, a 2D split into the rows and columns of a grid with a reduction on
 * each, fcollect, finalize. Before the PEs shared their mappings, 256 PEs failed at init (each
 * mapped every heap file: 65,536 entries past vm.max_map_count); before teams took blocks sized
 * by their own members, 507 PEs did not fit the default reserved region (256 slots, each with
 * 128 bytes per world PE).
 */
class ScaleInProcessTest {
    /**
     * 1,024 regions of 1 MiB of heap and 16 MiB reserved fit this machine's /dev/shm (24 GB),
     * which init checks against the regions' full sizes. 32 rows of 32.
     */
    private static final int PES = 1024;
    private static final int COLUMNS = 32;

    @Test
    void manyPesInitReduceSplitIntoAGridAndCollect() {
        int rows = PES / COLUMNS;
        InProcessJob.run(PES, InProcessTestSupport.oneNodeEnv("SHMEM_SYMMETRIC_SIZE", "1m", "SHMEM_RESERVED_SIZE", "16m"), Duration.ofSeconds(240), () -> {
            try (Shmem shmem = Shmem.init()) {
                int me = shmem.myPe();
                assertEquals(PES, shmem.nPes());
                shmem.barrierAll();
                Team world = shmem.teamWorld();
                SymmetricLongArray src = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray dst = shmem.calloc(ValueLayout.JAVA_LONG, 1);
                SymmetricLongArray all = shmem.calloc(ValueLayout.JAVA_LONG, PES);
                src.set(0, me);
                world.sumReduce(dst, src, 1);
                assertEquals((long) PES * (PES - 1) / 2, dst.get(0));

                Team.Split2d grid = world.split2d(COLUMNS, null, 0, null, 0);
                int row = me / COLUMNS, column = me % COLUMNS;
                assertEquals(column, grid.xAxis().myPe());
                assertEquals(row, grid.yAxis().myPe());
                grid.xAxis().sumReduce(dst, src, 1); // row r: PEs r*C .. r*C + C-1
                assertEquals((long) COLUMNS * row * COLUMNS + (long) COLUMNS * (COLUMNS - 1) / 2, dst.get(0));
                grid.yAxis().sumReduce(dst, src, 1); // column c: PEs c, c + C, .., c + (R-1)*C
                assertEquals((long) rows * column + (long) COLUMNS * rows * (rows - 1) / 2, dst.get(0));

                world.fcollect(all, src, 1);
                for (int pe = 0; pe < PES; pe++) {
                    assertEquals(pe, all.get(pe));
                }
                grid.yAxis().close();
                grid.xAxis().close();
                all.close();
                dst.close();
                src.close();
            }
        }).orThrow();
    }
}
