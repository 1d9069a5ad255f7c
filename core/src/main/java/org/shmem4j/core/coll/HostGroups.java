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

    @Override
    public String toString() {
        return "HostGroups" + Arrays.deepToString(members);
    }
}
