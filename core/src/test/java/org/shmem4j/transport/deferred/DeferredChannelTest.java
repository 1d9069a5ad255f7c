package org.shmem4j.transport.deferred;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelContract;
import org.shmem4j.transport.ChannelMode;
import org.shmem4j.transport.ChannelOptions;

/** The test double keeps the contract it is meant to stress the core with. */
class DeferredChannelTest extends ChannelContract {
    @Override
    protected Fixture open(int npes) {
        Arena arena = Arena.ofShared();
        MemorySegment[] regions = new MemorySegment[npes];
        for (int pe = 0; pe < npes; pe++) {
            regions[pe] = arena.allocate(REGION, 64);
        }
        DeferredTransport transport = new DeferredTransport(0, regions, null, false, false);
        Channel[] channels = new Channel[npes];
        for (int pe = 0; pe < npes; pe++) {
            channels[pe] = transport.openChannel(new ChannelOptions(ChannelMode.SHARED, 0, false));
        }
        return new Fixture() {
            @Override
            public int npes() {
                return npes;
            }

            @Override
            public Channel channel(int pe) {
                return channels[pe];
            }

            @Override
            public MemorySegment region(int pe) {
                return regions[pe];
            }

            @Override
            public void close() {
                transport.close();
                arena.close();
            }
        };
    }
}
