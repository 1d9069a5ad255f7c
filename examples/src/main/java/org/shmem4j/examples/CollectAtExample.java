package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.SymmetricSegment;
import org.shmem4j.Team;

/**
 * Spec Example 37 (section 9.10.10, {@code shmem_sum_exscan}): {@code collectAt} gathers a variable
 * number of bytes from every team member and concatenates them, in team order, on member
 * {@code who} only: an in-place exclusive sum scan of the byte counts gives each member its offset,
 * where it puts its bytes. The spec gives only the function; this {@code main} calls it on the
 * world team with PE {@code p} contributing {@code p + 1} bytes of value {@code p}, once gathering
 * at the last PE and once at PE 0. Runs on any number of PEs. Prints nothing.
 *
 * <p>C's {@code static size_t sym_nbytes} becomes a symmetric {@code long} the caller allocates
 * once. Departure: {@code who} is a team PE number, translated to the world for the put (the spec's
 * {@code shmem_putmem(.., who)} reads it as a world PE number, the same on the world team). Checks
 * (added): each PE's offset is {@code p(p+1)/2}; the gathering PE holds {@code 0, 1, 1, 2, 2, 2,
 * ..}; the other PEs' {@code dest} stays zero.
 */
public final class CollectAtExample {
    private CollectAtExample() {
    }

    /** The spec's {@code collect_at}: {@code symNbytes} is its {@code static size_t sym_nbytes}. */
    static void collectAt(Shmem shmem, SymmetricLongArray symNbytes, Team team, SymmetricSegment dest,
            byte[] source, int nbytes, int who) {
        symNbytes.set(0, nbytes);
        team.sync();
        team.sumExscan(symNbytes, symNbytes, 1);
        shmem.putmem(dest, symNbytes.get(0), source, 0, nbytes, team.translatePe(who, shmem.teamWorld()));
        shmem.quiet();
        team.sync();
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init(); SymmetricLongArray symNbytes = shmem.calloc(ValueLayout.JAVA_LONG, 1)) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            int total = npes * (npes + 1) / 2;
            byte[] source = new byte[mype + 1];
            Arrays.fill(source, (byte) mype);
            byte[] gathered = new byte[total];
            for (int pe = 0, at = 0; pe < npes; pe++) {
                for (int i = 0; i <= pe; i++) {
                    gathered[at++] = (byte) pe;
                }
            }
            for (int who : new int[] {npes - 1, 0}) {
                try (SymmetricSegment dest = shmem.calloc(total, 1)) {
                    collectAt(shmem, symNbytes, shmem.teamWorld(), dest, source, source.length, who);

                    // added checks
                    Checks.expectEquals(shmem, "offset of PE " + mype, (long) mype * (mype + 1) / 2, symNbytes.get(0));
                    byte[] got = dest.segment().toArray(ValueLayout.JAVA_BYTE);
                    Checks.expectEquals(shmem, "dest on PE " + mype + " (gathered at " + who + ")",
                            mype == who ? gathered : new byte[total], got);
                }
            }
        }
    }
}
