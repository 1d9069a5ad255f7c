package org.shmem4j.examples;

import org.shmem4j.Shmem;
import org.shmem4j.Team;

/**
 * Spec Example 10 (section 9.4.5, {@code shmem_team_translate_pe}): the even-numbered PEs of the
 * world form a new team by a strided split ({@code start 0, stride 2, size (npes + 1) / 2}); each
 * member translates its team number back to its world number, which must be its {@code my_pe}.
 * Runs on any number of PEs.
 *
 * <p>C's null config with mask 0 becomes {@code TeamConfig.DEFAULT} with mask 0; the
 * {@code SHMEM_TEAM_INVALID} comparison becomes {@link Team#isValid()}. Checks (the spec's one, plus
 * added ones): a member's world number translates back; the even PEs and only they are members;
 * the team has {@code (npes + 1) / 2} PEs; world-to-team translation inverts it and gives -1 for
 * the odd PEs; translation involving an invalid team gives -1.
 */
public final class TeamTranslatePeExample {
    private TeamTranslatePeExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int mype = shmem.myPe();
            int npes = shmem.nPes();
            Team world = shmem.teamWorld();

            Team newTeam = world.splitStrided(0, 2, (npes + 1) / 2, null, 0);

            if (newTeam.isValid()) {
                int teamMype = newTeam.myPe();
                int globalMype = newTeam.translatePe(teamMype, world);
                Checks.expectEquals(shmem, "shmem_team_translate_pe(new_team, " + teamMype + ", WORLD)", mype, globalMype);
            }

            // added checks
            Checks.expectEquals(shmem, "membership of the even team", mype % 2 == 0, newTeam.isValid());
            if (newTeam.isValid()) {
                Checks.expectEquals(shmem, "shmem_team_n_pes(new_team)", (npes + 1) / 2, newTeam.nPes());
                Checks.expectEquals(shmem, "shmem_team_my_pe(new_team)", mype / 2, newTeam.myPe());
            } else {
                Checks.expectEquals(shmem, "shmem_team_my_pe(SHMEM_TEAM_INVALID)", -1, newTeam.myPe());
                Checks.expectEquals(shmem, "shmem_team_n_pes(SHMEM_TEAM_INVALID)", -1, newTeam.nPes());
                Checks.expectEquals(shmem, "translate from SHMEM_TEAM_INVALID", -1, newTeam.translatePe(0, world));
            }
            for (int pe = 0; pe < npes; pe++) {
                int expected = !newTeam.isValid() ? -1 : pe % 2 == 0 ? pe / 2 : -1;
                Checks.expectEquals(shmem, "shmem_team_translate_pe(WORLD, " + pe + ", new_team)", expected,
                        world.translatePe(pe, newTeam));
            }
            newTeam.close();
        }
    }
}
