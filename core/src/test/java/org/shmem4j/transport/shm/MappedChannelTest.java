package org.shmem4j.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelContract;

/** The channel contract over mapped regions (arena memory stands in for the PEs' heap files). */
class MappedChannelTest extends ChannelContract {
    @Override
    protected Fixture open(int npes) {
        Arena arena = Arena.ofShared();
        MemorySegment[] regions = new MemorySegment[npes];
        for (int pe = 0; pe < npes; pe++) {
            regions[pe] = arena.allocate(REGION, 64);
        }
        return new Fixture() {
            @Override
            public int npes() {
                return npes;
            }

            @Override
            public Channel channel(int pe) {
                return new MappedChannel(regions);
            }

            @Override
            public MemorySegment region(int pe) {
                return regions[pe];
            }

            @Override
            public void close() {
                arena.close();
            }
        };
    }
}
