package org.shmem4j.examples;

import org.shmem4j.Shmem;
import org.shmem4j.Team;

/**
 * Spec Example 11 (section 9.4.6, {@code shmem_team_split_strided}): a strided split
 * ({@code start 0, stride 2, size npes / 2}) makes a team of even-numbered PEs; each member checks
 * that it is even, that its team number is half its world number and that the team has
 * {@code npes / 2} PEs.
 *
 * <p>On one PE the size is 0, an invalid triplet: the split fails on every PE and the example has
 * nothing to check, as in C. On an odd number of PEs the last even PE is not a member. Checks (the
 * spec's, plus added ones): exactly the PEs {@code 0, 2, .., 2 * (npes / 2 - 1)} are members; on
 * one PE the split failed with a reason naming the size.
 */
public final class TeamSplitStridedExample {
    private TeamSplitStridedExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();

            Team newTeam = shmem.teamWorld().splitStrided(0, 2, npes / 2, null, 0);

            if (newTeam.isValid()) {
                int teamNpes = newTeam.nPes();
                int teamMype = newTeam.myPe();
                if (mype % 2 != 0 || mype / 2 != teamMype || npes / 2 != teamNpes) {
                    Checks.fail(shmem, "PE " + mype + " is PE " + teamMype + " of " + teamNpes + " in the even team");
                }
            }

            // added checks
            boolean member = mype % 2 == 0 && mype / 2 < npes / 2;
            Checks.expectEquals(shmem, "membership of the even team", member, newTeam.isValid());
            if (npes == 1) {
                String reason = newTeam.invalidReason();
                Checks.check(shmem, reason != null && reason.contains("size 0"),
                        "a split of size 0 fails with a reason naming the size, not: " + reason);
            }
            newTeam.close();
        }
    }
}
