package org.shmem4j.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.shmem4j.core.coll.PolicyFixtures.blocks;
import static org.shmem4j.core.coll.PolicyFixtures.flat;
import static org.shmem4j.core.coll.PolicyFixtures.team;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.shmem4j.ShmemException;
import org.shmem4j.core.param.AlgorithmNames;
import org.shmem4j.core.param.Parameters;

/**
 * What the automatic policy picks for given teams and sizes. Algorithms of other branches may not
 * be merged yet, so an expectation is "that name, or linear where the catalog lacks it" (the
 * policy's documented fallback); {@link PolicyNamesInCatalogTest} checks that the names exist.
 */
class CollectivePolicyTest {
    private static final CollectivePolicy AUTO = new CollectivePolicy(Parameters.from(Map.of()));

    /** {@code name} if the catalog has it, else the policy's fallback {@code linear}. */
    @Test
    void tinyTeamsAreLinear() {
        for (int n = 1; n <= 2; n++) {
            CollectiveSupport s = flat(n);
            assertEquals("linear", AUTO.broadcast(s, 1 << 20).name());
            assertEquals("linear", AUTO.reduce(s, 8).name());
            assertEquals("linear", AUTO.fcollect(s, 8).name());
            assertEquals("linear", AUTO.collect(s, 8).name());
            assertEquals("linear", AUTO.alltoall(s, 1 << 20).name());
            assertEquals("linear", AUTO.scan(s, 8).name());
            assertEquals("dissemination", AUTO.barrier(s).name());
        }
        // two members on two hosts: not worth a hierarchy
        assertEquals("linear", AUTO.reduce(blocks(2, 2), 8).name());
        assertEquals("dissemination", AUTO.barrier(blocks(2, 2)).name());
    }

    /** Members on other nodes: push while the data fits the scratch (fcollect: at any size), the usual choice beyond it. */
    @Test
    void teamsReachingMembersByNetworkPushWhatFitsTheScratch() {
        long scratch = 16 << 10;
        for (int[] hosts : new int[][] {{0, 1}, {0, 1, 2}, {0, 0, 1}, {0, 1, 2, 3, 4}}) {
            CollectiveSupport s = PolicyFixtures.team(true, scratch, hosts);
            assertEquals("push", AUTO.reduce(s, 8).name());
            assertEquals("push", AUTO.broadcast(s, 8).name());
            assertEquals("push", AUTO.fcollect(s, 8).name());
            assertFalse(AUTO.collect(s, 8).name().equals("push")); // sizes unknown before the call
            assertEquals("dissemination", AUTO.barrier(s).name());
            assertEquals("push", AUTO.broadcast(s, scratch).name());
            assertFalse(AUTO.broadcast(s, scratch + 1).name().equals("push"));
            assertFalse(AUTO.reduce(s, scratch + 64).name().equals("push"));
            // beyond the scratch through the leaders' dest where a host has several members, or a block goes one way
            assertEquals(hosts.length == 3 && hosts[0] == hosts[1], AUTO.fcollect(s, scratch).name().equals("push"));
            assertEquals("push", AUTO.fcollect(s, PolicyFixtures.ONE_WAY_PUT_SIGNAL).name());
            long slot = scratch / (hosts.length - 1); // alltoall: a slot per other member
            assertEquals("push", AUTO.alltoall(s, 8).name());
            assertEquals("push", AUTO.alltoall(s, slot).name());
            assertEquals("push", AUTO.alltoall(s, PolicyFixtures.ONE_WAY_PUT_SIGNAL).name()); // beyond the scratch: into dest
            assertFalse(AUTO.alltoall(s, Math.max(slot, PolicyFixtures.ONE_WAY_PUT_SIGNAL) + 1).name().equals("push"));
        }
        // two members on each of two nodes: push through one member per node, barrier through leaders
        CollectiveSupport twoByTwo = PolicyFixtures.team(true, scratch, 0, 0, 1, 1);
        for (String pushed : new String[] {AUTO.reduce(twoByTwo, 8).name(), AUTO.broadcast(twoByTwo, 8).name(),
                AUTO.fcollect(twoByTwo, 8).name(), AUTO.alltoall(twoByTwo, 8).name()}) {
            assertEquals("push", pushed);
        }
        assertEquals("hierarchical", AUTO.barrier(twoByTwo).name());
        assertEquals("push", AUTO.fcollect(twoByTwo, 1 << 20).name()); // into the leaders' dest
        // the reduction's slots: a round across the leaders, a member's source, the result
        assertEquals("push", AUTO.reduce(twoByTwo, scratch / 3 / 64 * 64).name());
        assertEquals("hierarchical", AUTO.reduce(twoByTwo, scratch / 3 / 64 * 64 + 64).name());
        // pseudo-hosts on one node map each other: no push
        assertEquals("linear", AUTO.reduce(PolicyFixtures.team(false, scratch, 0, 1), 8).name());
        assertEquals("linear", AUTO.alltoall(PolicyFixtures.team(false, scratch, 0, 1), 8).name());
    }

    @Test
    void smallMessagesOnOneHostAreLatencyOptimal() {
        CollectiveSupport s = flat(16);
        assertEquals("dissemination", AUTO.barrier(s).name());
        assertEquals("binomial", AUTO.broadcast(s, 8).name());
        assertEquals("binomial", AUTO.broadcast(s, (32 << 10) - 1).name());
        assertEquals("recursive_doubling", AUTO.reduce(s, 8).name());
        assertEquals("recursive_doubling", AUTO.fcollect(s, 8).name());
        assertEquals("bruck", AUTO.fcollect(flat(12), 8).name());
        assertEquals("linear", AUTO.alltoall(s, 64).name());
        assertEquals("log", AUTO.scan(s, 8).name());
    }

    @Test
    void largeMessagesOnOneHostAreBandwidthOptimal() {
        CollectiveSupport s = flat(16);
        assertEquals("scatter_allgather", AUTO.broadcast(s, 32 << 10).name());
        assertEquals("rabenseifner", AUTO.reduce(s, 16 << 10).name());
        assertEquals("ring", AUTO.fcollect(s, 16 << 10).name());
        assertEquals("pairwise", AUTO.alltoall(s, 1 << 10).name());
    }

    @Test
    void collectIgnoresItsOwnContributionSize() {
        // members contribute different sizes, so the size must not change the choice
        CollectiveSupport s = flat(12);
        assertEquals(AUTO.collect(s, 0).name(), AUTO.collect(s, 1L << 30).name());
        assertEquals("bruck", AUTO.collect(s, 1L << 30).name());
        assertEquals("recursive_doubling", AUTO.collect(flat(16), 8).name());
        assertEquals("linear", AUTO.collect(flat(6), 1L << 30).name());
    }

    @Test
    void smallOneHostTeamsPullDirectly() {
        for (int n : new int[] {3, 5, 8}) {
            CollectiveSupport s = flat(n);
            assertEquals("linear", AUTO.broadcast(s, 8).name());
            assertEquals("linear", AUTO.broadcast(s, 1 << 20).name());
            assertEquals("linear", AUTO.fcollect(s, 8).name());
            assertEquals("linear", AUTO.fcollect(s, 1 << 20).name());
            assertEquals("hierarchical", AUTO.reduce(s, 8).name());
            assertEquals("hierarchical", AUTO.reduce(s, (16 << 10) - 8).name());
            assertEquals("ring", AUTO.reduce(s, 16 << 10).name());
        }
        assertEquals("linear", AUTO.reduce(flat(2), (16 << 10) - 8).name());
        assertEquals("rabenseifner", AUTO.reduce(flat(2), 16 << 10).name());
    }

    @Test
    void teamsSpanningHostsGoThroughLeaders() {
        for (CollectiveSupport s : new CollectiveSupport[] {blocks(4, 2), blocks(5, 2), blocks(12, 3), blocks(6, 3),
                team(0, 1, 0, 1, 0, 1)}) {
            assertTrue(CollectivePolicy.hierarchical(s));
            assertEquals("hierarchical", AUTO.barrier(s).name());
            assertEquals("hierarchical", AUTO.broadcast(s, 8).name());
            assertEquals("hierarchical", AUTO.broadcast(s, 1 << 20).name());
            assertEquals("hierarchical", AUTO.reduce(s, 8).name());
            assertEquals("hierarchical", AUTO.reduce(s, 1 << 20).name());
            // collectives without a hierarchical algorithm keep the flat choice
            assertEquals("pairwise", AUTO.alltoall(s, 1 << 20).name());
        }
    }

    @Test
    void aboutOneMemberPerHostIsFlat() {
        // 5 members on 4 hosts: on average fewer than two per host
        CollectiveSupport s = team(0, 1, 2, 3, 3);
        assertFalse(CollectivePolicy.hierarchical(s));
        assertEquals("dissemination", AUTO.barrier(s).name());
        assertEquals("recursive_doubling", AUTO.reduce(s, 8).name());
        assertFalse(CollectivePolicy.hierarchical(blocks(6, 6)));
        assertFalse(CollectivePolicy.hierarchical(flat(12)));
    }

    @Test
    void crossoversAreParameters() {
        CollectivePolicy p = new CollectivePolicy(Parameters.from(Map.of("SHMEM_BCAST_CROSSOVER", "1k",
                "SHMEM_REDUCE_CROSSOVER", "0", "SHMEM_COLLECT_CROSSOVER", "1m", "SHMEM_ALLTOALL_CROSSOVER", "16")));
        CollectiveSupport s = flat(16);
        assertEquals("binomial", p.broadcast(s, 1023).name());
        assertEquals("scatter_allgather", p.broadcast(s, 1024).name());
        assertEquals("rabenseifner", p.reduce(s, 8).name());
        assertEquals("recursive_doubling", p.fcollect(s, 512 << 10).name());
        assertEquals("pairwise", p.alltoall(s, 16).name());
        assertEquals("linear", p.alltoall(s, 15).name());
        assertThrows(ShmemException.class, () -> Parameters.from(Map.of("SHMEM_BCAST_CROSSOVER", "lots")));
    }

    @Test
    void forcedNamesWinWhateverTheTeam() {
        CollectivePolicy p = new CollectivePolicy(Parameters.from(Map.of("SHMEM_BARRIER_ALGORITHM", "hierarchical",
                "SHMEM_BCAST_ALGORITHM", "hierarchical", "SHMEM_REDUCE_ALGORITHM", "linear")));
        // hierarchical on one host (it degenerates to host-local) and on a tiny team
        assertEquals("hierarchical", p.barrier(flat(4)).name());
        assertEquals("hierarchical", p.broadcast(flat(2), 8).name());
        assertEquals("linear", p.reduce(blocks(12, 3), 8).name());
    }

    @Test
    void hierarchicalIsInEveryCatalogItServes() {
        assertEquals(HierarchicalAlgorithms.BARRIER, CollectiveCatalog.BARRIER.get("hierarchical"));
        assertEquals(HierarchicalAlgorithms.BROADCAST, CollectiveCatalog.BROADCAST.get("hierarchical"));
        assertEquals(HierarchicalAlgorithms.REDUCE, CollectiveCatalog.REDUCE.get("hierarchical"));
        assertFalse(CollectiveCatalog.COLLECT.containsKey("hierarchical"));
        assertTrue(AlgorithmNames.BARRIER.contains("hierarchical"));
        assertTrue(Parameters.from(Map.of()).infoText().contains("hierarchical"));
        assertTrue(Parameters.from(Map.of()).infoText().contains("SHMEM_REDUCE_CROSSOVER"));
    }

    /**
     * At 64 members and more, whatever the route and payload, the automatic choice is never one
     * whose busiest member does work linear in n (linear, push broadcast or fcollect, rings, a
     * scatter_allgather whose ring steps move less than the crossover), alltoall aside. With
     * -Dshmem4j.policy.print=true prints the table of docs/collectives.md.
     */
    @Test
    void choicesAtScaleAreLogarithmic() {
        long scratch = 16 << 10;
        for (int n : new int[] {2, 8, 64, 1024, 65536}) {
            int[] perNode = new int[n];
            int[] hostsOf16 = new int[n];
            for (int r = 0; r < n; r++) {
                perNode[r] = r;
                hostsOf16[r] = r / 16;
            }
            Map<String, CollectiveSupport> routes = new java.util.LinkedHashMap<>();
            routes.put("one host", flat(n));
            routes.put("16 per node", team(true, scratch, hostsOf16));
            routes.put("1 per node", team(true, scratch, perNode));
            for (var route : routes.entrySet()) {
                CollectiveSupport s = route.getValue();
                for (long bytes : new long[] {8, 1 << 20}) {
                    java.util.List<String> chosen = java.util.List.of(AUTO.barrier(s).name(),
                            AUTO.broadcast(s, bytes).name(), AUTO.reduce(s, bytes).name(), AUTO.fcollect(s, bytes).name(),
                            AUTO.collect(s, bytes).name(), AUTO.alltoall(s, bytes).name(), AUTO.scan(s, bytes).name());
                    if (Boolean.getBoolean("shmem4j.policy.print")) {
                        System.out.println("| " + n + " | " + route.getKey() + " | " + bytes + " | "
                                + String.join(" | ", chosen) + " |");
                    }
                    if (n >= 64) {
                        for (int i = 0; i < chosen.size(); i++) {
                            if (i == 5) {
                                continue; // alltoall: n - 1 blocks per member whatever the algorithm
                            }
                            String name = chosen.get(i);
                            assertFalse(name.equals("linear") || name.equals("ring") || name.equals("scatter_allgather")
                                    // push: the reduction (logarithmic), broadcast and fcollect (linear in hosts) up to PUSH_TEAM hosts
                                    || name.equals("push") && i != 2
                                            && !((i == 1 || i == 3) && s.hostGroups().hosts() <= CollectivePolicy.PUSH_TEAM),
                                    n + " members, " + route.getKey() + ", " + bytes
                                            + " bytes: " + name + " at position " + i + " of " + chosen);
                        }
                    }
                }
            }
        }
        // scatter_allgather stays where each ring step moves at least the crossover
        assertEquals("scatter_allgather", AUTO.broadcast(flat(64), 64L * (32 << 10)).name());
        assertEquals("binomial", AUTO.broadcast(flat(64), 64L * (32 << 10) - 64).name());
        assertEquals("ring", AUTO.fcollect(flat(16), 16 << 10).name());
        assertEquals("bruck", AUTO.fcollect(flat(17), 16 << 10).name());
        assertEquals("push", AUTO.broadcast(team(true, scratch, 0, 1, 2, 3, 4, 5, 6, 7), 8).name());
        assertEquals("binomial", AUTO.broadcast(team(true, scratch, 0, 1, 2, 3, 4, 5, 6, 7, 8), 8).name());
        // alltoall pushes at any team size: into the scratch while its n - 1 slots fit (2,049 members
        // of 8 bytes in 16 KiB), beyond into the receivers' dest for blocks a put with signal carries one way
        int[] members = java.util.stream.IntStream.range(0, 2049).toArray();
        assertEquals("push", AUTO.alltoall(team(true, scratch, members), 8).name());
        CollectiveSupport wider = team(true, scratch, java.util.Arrays.copyOf(members, 2050));
        assertEquals("push", AUTO.alltoall(wider, PolicyFixtures.ONE_WAY_PUT_SIGNAL).name());
        assertEquals("pairwise", AUTO.alltoall(wider, PolicyFixtures.ONE_WAY_PUT_SIGNAL + 8).name());
    }

    @Test
    void hostGroups() {
        HostGroups g = new HostGroups(new int[] {7, 3, 7, 3, 9});
        assertEquals(3, g.hosts());
        assertEquals(0, g.hostOf(0));
        assertEquals(1, g.hostOf(1));
        assertEquals(2, g.hostOf(4));
        assertEquals(0, g.leader(0));
        assertEquals(1, g.leader(1));
        assertEquals(4, g.leader(2));
        assertEquals(java.util.List.of(1, 3), java.util.Arrays.stream(g.members(1)).boxed().toList());
        assertEquals(2, g.maxPerHost());
        assertTrue(g.spansHosts());
        assertFalse(new HostGroups(new int[] {1, 1}).spansHosts());
    }
}
