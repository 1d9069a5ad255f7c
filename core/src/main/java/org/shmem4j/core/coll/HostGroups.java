package org.shmem4j.core.coll;

import java.util.Arrays;

/**
 * A team's members grouped by (declared) host, for the node-aware algorithms and the policy.
 * Hosts are numbered 0, 1, ... in the order of their lowest member; a host's leader is its lowest
 * member (team number), and its members are listed in team order, leader first.
 */
public final class HostGroups {
    private final int[] hostOfMember;
    private final int[][] members;
    /** Members on the most populated host (the push reduction sizes its slots by it on every call). */
    private final int maxPerHost;
    /** {@link #halvingOrder}'s answer, made on first use (the same every time: a racy rebuild is harmless). */
    private int[] halvingOrder;

    /** @param hostIdOfMember any integer per member naming its host (equal = same host) */
    public HostGroups(int[] hostIdOfMember) {
        int n = hostIdOfMember.length;
        this.hostOfMember = new int[n];
        // host id -> host number, in the order of first appearance: O(n), whatever the number of hosts
        java.util.Map<Integer, Integer> numberOfId = new java.util.HashMap<>();
        int[] count = new int[n];
        for (int m = 0; m < n; m++) {
            Integer known = numberOfId.putIfAbsent(hostIdOfMember[m], numberOfId.size());
            int h = known != null ? known : numberOfId.size() - 1;
            hostOfMember[m] = h;
            count[h]++;
        }
        int hosts = numberOfId.size();
        this.members = new int[hosts][];
        int[] fill = new int[hosts];
        for (int h = 0; h < hosts; h++) {
            members[h] = new int[count[h]];
        }
        for (int m = 0; m < n; m++) {
            int h = hostOfMember[m];
            members[h][fill[h]++] = m;
        }
        int max = 0;
        for (int h = 0; h < hosts; h++) {
            max = Math.max(max, count[h]);
        }
        this.maxPerHost = max;
    }

    /** Number of team members. */
    public int size() {
        return hostOfMember.length;
    }

    /** Number of distinct hosts among the members. */
    public int hosts() {
        return members.length;
    }

    /** The host (0 to {@link #hosts()} - 1) of {@code member}. */
    public int hostOf(int member) {
        return hostOfMember[member];
    }

    /** The leader (lowest member) of host {@code host}. */
    public int leader(int host) {
        return members[host][0];
    }

    /** The members of host {@code host} in team order, leader first (do not modify). */
    public int[] members(int host) {
        return members[host];
    }

    /** Members on the most populated host. */
    public int maxPerHost() {
        return maxPerHost;
    }

    /** True when the members span more than one host. */
    public boolean spansHosts() {
        return members.length > 1;
    }

    /**
     * The partner distances of a recursive halving over the team's largest power of two p of
     * participants (participant i is member 2i + 1 for i below n - p, else i + n - p: the others
     * were folded into their odd neighbour), in the order to run them: the distances whose
     * partners share a host most often first (ties: the larger first). Halving moves half the
     * vector in its first round and less in each next one, so the large rounds go through shared
     * memory and the network carries the small ones (members placed in blocks per host: the low
     * distances first). The same on every member.
     */
    public int[] halvingOrder() {
        int[] order = halvingOrder;
        if (order == null) {
            halvingOrder = order = sortedDistances();
        }
        return order;
    }

    private int[] sortedDistances() {
        int n = size();
        int p = Integer.highestOneBit(n);
        int extra = n - p;
        int rounds = Integer.numberOfTrailingZeros(p);
        long[] keyed = new long[rounds];
        for (int b = 0; b < rounds; b++) {
            int d = 1 << b;
            long local = 0;
            for (int i = 0; i < p; i++) {
                int member = ReduceAlgorithms.realRank(i, extra), partner = ReduceAlgorithms.realRank(i ^ d, extra);
                if (hostOfMember[member] == hostOfMember[partner]) {
                    local++;
                }
            }
            keyed[b] = local << 8 | b; // by shared pairs, then by distance; descending below
        }
        Arrays.sort(keyed);
        int[] order = new int[rounds];
        for (int j = 0; j < rounds; j++) {
            order[j] = 1 << (int) (keyed[rounds - 1 - j] & 0xff);
        }
        return order;
    }

    @Override
    public String toString() {
        return "HostGroups" + Arrays.deepToString(members);
    }
}
