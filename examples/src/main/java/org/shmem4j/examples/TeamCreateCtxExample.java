package org.shmem4j.examples;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;
import org.shmem4j.Team;
import org.shmem4j.TeamConfig;

/**
 * Spec Example 13 (section 9.5.2, {@code shmem_team_create_ctx}): contexts on two teams,
 * {@code team_2} (world PEs 0, 2, 4, ..) and {@code team_3} (0, 3, 6, ..), each split with
 * {@code num_contexts = 1}. Within each team every member puts its team number to its right
 * neighbour's {@code val_2} / {@code val_3} through the team's context (team-relative PE numbers);
 * after quieting both contexts and a world {@code shmem_team_sync}, the PEs in both teams add
 * {@code val_2 + val_3} to {@code sum} on PE 0 with {@code ctx_2}; PE 0 compares it with the value
 * it computes by translating PE numbers. Contexts are destroyed before their teams. Runs on any
 * number of PEs.
 *
 * <p>C's {@code static int sum, val_2, val_3} become zeroed symmetric allocations. A Java
 * {@link Team#createCtx} on an invalid team throws instead of returning {@code SHMEM_CTX_INVALID},
 * so the port creates a context only on a valid team and uses null for {@code SHMEM_CTX_INVALID}.
 * Checks: the spec's sum; added: the teams' {@code num_contexts} is 1
 * ({@code shmem_team_get_config}), each context's team is its team ({@code shmem_ctx_get_team}),
 * every member received its left neighbour's team number (read through {@code shmem_team_ptr} on
 * the neighbour as well), and the teams are invalid after {@code shmem_team_destroy}.
 */
public final class TeamCreateCtxExample {
    private TeamCreateCtxExample() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init();
                SymmetricIntArray sum = shmem.calloc(ValueLayout.JAVA_INT, 1);
                SymmetricIntArray val2 = shmem.calloc(ValueLayout.JAVA_INT, 1);
                SymmetricIntArray val3 = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
            int npes = shmem.nPes();
            int mype = shmem.myPe();
            Team world = shmem.teamWorld();
            TeamConfig conf = new TeamConfig(1);
            long cmask = Team.NUM_CONTEXTS;

            // Create team_2 with PEs numbered 0, 2, 4, ...
            Team team2 = world.splitStrided(0, 2, (npes + 1) / 2, conf, cmask);
            if (!team2.isValid() && mype % 2 == 0) {
                Checks.fail(shmem, "Error creating team team_2 (" + team2.invalidReason() + ")");
            }
            // Create team_3 with PEs numbered 0, 3, 6, ...
            Team team3 = world.splitStrided(0, 3, (npes + 2) / 3, conf, cmask);
            if (!team3.isValid() && mype % 3 == 0) {
                Checks.fail(shmem, "Error creating team team_3 (" + team3.invalidReason() + ")");
            }

            // Create a context on team_2 and one on team_3 (null: SHMEM_CTX_INVALID).
            Context ctx2 = team2.isValid() ? team2.createCtx(0) : null;
            Context ctx3 = team3.isValid() ? team3.createCtx(0) : null;

            // Within each team, put my PE number to my neighbor in a ring-based manner.
            if (ctx2 != null) {
                int pe = team2.myPe();
                ctx2.put(val2, 0, new int[] {pe}, 0, 1, (pe + 1) % team2.nPes());
            }
            if (ctx3 != null) {
                int pe = team3.myPe();
                ctx3.put(val3, 0, new int[] {pe}, 0, 1, (pe + 1) % team3.nPes());
            }

            // Quiet both contexts and synchronize all PEs to complete the data transfers.
            if (ctx2 != null) {
                ctx2.quiet();
            }
            if (ctx3 != null) {
                ctx3.quiet();
            }
            world.sync();

            // Sum the values among PEs that are in both team_2 and team_3 on PE 0 with ctx_2.
            if (team3.isValid() && team2.isValid()) {
                ctx2.atomicAdd(sum, 0, val2.get(0) + val3.get(0), 0);
            }

            // Quiet the context and synchronize PEs to complete the operation.
            if (ctx2 != null) {
                ctx2.quiet();
            }
            world.sync();

            // Validate the result.
            if (mype == 0) {
                int vsum = 0;
                for (int i = 0; i < npes; i++) {
                    if (i % 2 == 0 && i % 3 == 0) {
                        vsum += i - 2 < 0 ? team2.nPes() - 1 : world.translatePe(i - 2, team2);
                        vsum += i - 3 < 0 ? team3.nPes() - 1 : world.translatePe(i - 3, team3);
                    }
                }
                if (sum.get(0) != vsum) {
                    Checks.fail(shmem, "Unexpected result, npes = " + npes + ", vsum = " + vsum + ", sum = " + sum.get(0));
                }
            }

            // added checks
            checkTeam(shmem, "team_2", team2, ctx2, val2);
            checkTeam(shmem, "team_3", team3, ctx3, val3);

            // Destroy contexts before teams.
            if (ctx2 != null) {
                ctx2.close();
            }
            team2.close();
            if (ctx3 != null) {
                ctx3.close();
            }
            team3.close();
            Checks.check(shmem, !team2.isValid() && !team3.isValid(), "destroyed teams are invalid");
        }
    }

    private static void checkTeam(Shmem shmem, String name, Team team, Context ctx, SymmetricIntArray val) {
        if (!team.isValid()) {
            Checks.expectEquals(shmem, name + " val", 0, val.get(0));
            return;
        }
        int n = team.nPes();
        int me = team.myPe();
        Checks.expectEquals(shmem, name + " num_contexts", 1, team.getConfig().numContexts());
        Checks.check(shmem, ctx.team() == team, name + ": shmem_ctx_get_team is " + ctx.team() + ", not " + team);
        Checks.expectEquals(shmem, name + " val", (me + n - 1) % n, val.get(0));
        MemorySegment right = team.ptr(val, (me + 1) % n);
        if (right != null) {
            Checks.expectEquals(shmem, name + " val on the right neighbour through shmem_team_ptr", me,
                    right.get(ValueLayout.JAVA_INT, 0));
        }
    }
}
