package org.shmem4j;

/**
 * {@code shmem_team_config_t}: the requested properties of a new team. Fields are used only when
 * the split's mask names them ({@link Team#NUM_CONTEXTS}).
 *
 * @param numContexts how many contexts the program expects to create from the team at once
 */
public record TeamConfig(int numContexts) {
    /** The defaults of spec 9.4.3. */
    public static final TeamConfig DEFAULT = new TeamConfig(0);

    public TeamConfig {
        if (numContexts < 0) {
            throw new IllegalArgumentException("shmem_team_config_t: negative num_contexts " + numContexts);
        }
    }
}
