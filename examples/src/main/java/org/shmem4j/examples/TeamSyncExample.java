package org.shmem4j.examples;

import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.Team;

/**
 * Spec Example 31 (section 9.10.3, {@code shmem_team_sync}): two strided splits of the world make
 * a team of the PEs {@code 2, 4, ..} ({@code (npes - 1) / 2} of them, when {@code npes > 2}) and a
 * team of the PEs {@code 3, 6, ..} ({@code (npes - 1) / 3}, when {@code npes > 3}). In each team
 * every member puts 2 (resp. 3) into {@code x} on the next member (circularly, through
 * {@code shmem_team_translate_pe}), quiets and syncs the team. Then a PE that is a non-zero multiple
 * of 3 must hold 3, another non-zero even PE 2, every other PE the initial 10101. Runs on any number
 * of PEs. Prints nothing.
 *
 * <p>C's {@code static int x = 10101} becomes a symmetric allocation set to 10101 and a
 * {@code shmem_sync_all} (C initializes statics before any PE can put). Departure from the spec: a
 * world-team sync between the two phases. Without it the spec program is racy from 7 PEs on: PE 6
 * is in both teams, and PE 3 (not in the twos team) may put 3 into PE 6's {@code x} before PE 4
 * puts 2 there, leaving 2 where the check wants 3. The checks are the spec's ({@code
 * shmem_global_exit(1|2|3)} becomes {@link Checks#fail}), plus (added) the team sizes.
 */
public final class TeamSyncExample {
    private TeamSyncExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init(); SymmetricIntArray x = shmem.malloc(ValueLayout.JAVA_INT, 1)) {
            x.set(0, 10101);
            shmem.syncAll(); // the static initializer of C

            int mype = shmem.myPe();
            int npes = shmem.nPes();
            Team world = shmem.teamWorld();
            Team twosTeam = npes > 2 ? world.splitStrided(2, 2, (npes - 1) / 2, null, 0) : null;
            Team threesTeam = npes > 3 ? world.splitStrided(3, 3, (npes - 1) / 3, null, 0) : null;

            if (twosTeam != null && twosTeam.isValid()) {
                int mypeTwos = twosTeam.myPe();
                int npesTwos = twosTeam.nPes();
                Checks.expectEquals(shmem, "size of the twos team", (npes - 1) / 2, npesTwos); // added
                // put the value 2 to the next team member in a circular fashion
                shmem.p(x, 0, 2, twosTeam.translatePe((mypeTwos + 1) % npesTwos, world));
                shmem.quiet();
                twosTeam.sync();
            }

            world.sync(); // not in the spec: orders the phases for PEs in both teams (see above)

            if (threesTeam != null && threesTeam.isValid()) {
                int mypeThrees = threesTeam.myPe();
                int npesThrees = threesTeam.nPes();
                Checks.expectEquals(shmem, "size of the threes team", (npes - 1) / 3, npesThrees); // added
                // put the value 3 to the next team member in a circular fashion
                shmem.p(x, 0, 3, threesTeam.translatePe((mypeThrees + 1) % npesThrees, world));
                shmem.quiet();
                threesTeam.sync();
            }

            int value = x.get(0);
            if (mype != 0 && mype % 3 == 0) {
                Checks.expectEquals(shmem, "x on PE " + mype, 3, value);
            } else if (mype != 0 && mype % 2 == 0) {
                Checks.expectEquals(shmem, "x on PE " + mype, 2, value);
            } else {
                Checks.expectEquals(shmem, "x on PE " + mype, 10101, value);
            }

            for (Team t : new Team[] {twosTeam, threesTeam}) {
                if (t != null) {
                    t.close();
                }
            }
        }
    }
}
