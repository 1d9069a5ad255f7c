package org.shmem4j.transport.shm;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ThreadLocalRandom;
import java.util.HexFormat;
import org.shmem4j.ShmemException;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.transport.Capabilities;
import org.shmem4j.transport.Channel;
import org.shmem4j.transport.ChannelOptions;
import org.shmem4j.transport.Transport;

/**
 * Symmetric regions in shared memory: every PE's region is a file in a tmpfs directory
 * ({@code /dev/shm}), mapped by its owner and by every PE of the same node (physical machine), so a remote put is a
 * copy into the peer's mapping and an AMO is a CPU atomic on it, with no involvement of the target.
 *
 * <p>Files are named {@code shmem4j-<job>-<rank>-<random>}, created with mode 0600, and unlinked as
 * soon as every PE has mapped every peer's file: from then on a killed PE leaves nothing behind.
 * (The launcher deletes {@code shmem4j-<job>-*} too, for a death before that point.)
 *
 * <p>The PEs of one process share one mapping of each region ({@link RegionMappings}): a process
 * holds one mapping per PE of its node: N for an in-process job of N PEs (each PE mapping every
 * peer's file took N<sup>2</sup>), L for a launched PE with L PEs on its node. Per world PE, a PE
 * holds one reference here (the segment, null off the node) and one in its route table.
 */
public final class ShmTransport implements Transport {
    private static final Capabilities CAPABILITIES = new Capabilities(true, true, true, 0);
    /** The process's mappings of this init's regions, which this PE uses until close. */
    private final RegionMappings.Share share;
    /** Per world PE its region's segment, null off this node (the channels index it by rank). */
    private final MemorySegment[] mappings;

    private ShmTransport(RegionMappings.Share share, MemorySegment[] mappings) {
        this.share = share;
        this.mappings = mappings;
    }

    /**
     * Collective over the bootstrap: creates and maps this PE's region of {@code regionBytes},
     * maps the regions of the PEs on this node, then unlinks the files.
     *
     * @param table the mappings of this process's PEs, which this PE uses and adds to (one mapping
     *              per region file per process, however many PEs of the process use it)
     * @param nodeIds physical node identity of every PE (indexed by rank, {@code Bootstrap.nodeId()}): PEs of one node map each other, whatever hosts they are declared on
     */
    public static ShmTransport open(RegionMappings table, Bootstrap bootstrap, String[] nodeIds, Path dir, long regionBytes) {
        int rank = bootstrap.rank();
        String myNode = nodeIds[rank];
        int localPes = 0;
        for (String h : nodeIds) {
            if (h.equals(myNode)) {
                localPes++;
            }
        }
        Path own = null;
        String failure = null;
        try {
            checkSpace(dir, regionBytes, localPes);
            own = dir.resolve("shmem4j-" + bootstrap.jobId() + "-" + rank + "-" + randomHex());
            createRegionFile(own, regionBytes);
        } catch (ShmemException | IOException e) {
            failure = e.getMessage();
        }
        // Every PE takes part in the exchange even when it failed, so that all PEs learn of the
        // failure and report it instead of waiting for a PE that gave up.
        byte[][] paths = bootstrap.allGather(failure == null
                ? ("ok:" + own).getBytes(StandardCharsets.UTF_8)
                : ("error:" + failure).getBytes(StandardCharsets.UTF_8));
        // joined after the exchange: every PE of the job has left the previous init's share by then
        ShmTransport shm = new ShmTransport(table.join(), new MemorySegment[nodeIds.length]);
        try {
            if (failure != null) { // its own failure first: PEs that all failed each name themselves
                throw new ShmemException("shmem_init: PE " + rank + " could not create its symmetric heap: " + failure);
            }
            for (int pe = 0; pe < paths.length; pe++) {
                String entry = new String(paths[pe], StandardCharsets.UTF_8);
                if (entry.startsWith("error:")) {
                    throw new ShmemException("shmem_init: PE " + pe + " could not create its symmetric heap: "
                            + entry.substring("error:".length()));
                }
                if (nodeIds[pe].equals(myNode)) {
                    shm.mappings[pe] = map(shm.share, pe, Path.of(entry.substring("ok:".length())), regionBytes);
                }
            }
            bootstrap.barrier();
        } catch (RuntimeException | Error e) {
            try {
                shm.close();
            } finally {
                deleteQuietly(own);
            }
            throw e;
        }
        deleteQuietly(own);
        return shm;
    }

    private static MemorySegment map(RegionMappings.Share share, int pe, Path file, long regionBytes) {
        try {
            return share.map(file, regionBytes);
        } catch (IOException | RuntimeException e) {
            // names the peer: a file missing because its owner failed reads otherwise as a bare path
            throw new ShmemException("shmem_init: mapping the symmetric heap of PE " + pe + " failed: " + e, e);
        }
    }

    private static void checkSpace(Path dir, long regionBytes, int localPes) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new ShmemException("shared-memory directory " + dir + " does not exist (set SHMEM_SHM_DIR)");
        }
        long free = Files.getFileStore(dir).getUsableSpace();
        long needed = regionBytes * localPes;
        if (free < needed) {
            throw new ShmemException(dir + " has " + free + " bytes free but " + localPes + " PEs on this host need "
                    + needed + " (" + regionBytes + " each): lower SHMEM_SYMMETRIC_SIZE or free space in " + dir);
        }
    }

    private static void createRegionFile(Path file, long bytes) throws IOException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            // A sparse file: tmpfs pages are allocated on first touch.
            ch.write(ByteBuffer.wrap(new byte[1]), bytes - 1);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // The launcher removes the job's files when the job ends.
            }
        }
    }

    /** Only avoids clashes (the job id is already secret-random); creation fails on an existing name. */
    private static String randomHex() {
        return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()).substring(4);
    }

    @Override
    public String name() {
        return "shm";
    }

    @Override
    public MemorySegment mapping(int pe) {
        return mappings[pe];
    }

    @Override
    public boolean reaches(int pe) {
        return mappings[pe] != null;
    }

    /** Loads, stores and CPU atomics on the mappings: no target CPU, no messages. */
    @Override
    public Capabilities capabilities() {
        return CAPABILITIES;
    }

    /** One channel would serve every context (operations complete as issued); a fresh one is as cheap. */
    @Override
    public Channel openChannel(ChannelOptions options) {
        return new MappedChannel(mappings);
    }

    /** This PE leaves the process's mappings; the last PE of the process to leave unmaps them. */
    @Override
    public void close() {
        share.leave();
    }
}
