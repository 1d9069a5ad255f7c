package org.shmem4j.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every algorithm name the automatic policy refers to ({@link CollectivePolicy#REFERENCED})
 * must be in {@link CollectiveCatalog}. The policy falls back to {@code linear} for an absent
 * name, so a missing algorithm would silently cost performance instead of failing; this test makes
 * it loud, naming what is missing.
 */
@DisplayName("Policy names are all in the catalog")
class PolicyNamesInCatalogTest {

    @Test
    @DisplayName("every algorithm name CollectivePolicy refers to is registered")
    void everyReferencedNameIsRegistered() {
        Map<String, Map<String, ?>> catalogs = Map.of("barrier", CollectiveCatalog.BARRIER, "broadcast",
                CollectiveCatalog.BROADCAST, "collect", CollectiveCatalog.COLLECT, "alltoall", CollectiveCatalog.ALLTOALL,
                "reduce", CollectiveCatalog.REDUCE, "scan", CollectiveCatalog.SCAN);
        assertEquals(catalogs.keySet(), CollectivePolicy.REFERENCED.keySet());
        List<String> missing = new ArrayList<>();
        CollectivePolicy.REFERENCED.forEach((collective, names) -> {
            for (String name : names) {
                if (!catalogs.get(collective).containsKey(name)) {
                    missing.add(collective + " " + name);
                }
            }
        });
        missing.sort(null);
        assertEquals(List.of(), missing, "algorithms the policy names but the catalog lacks (merge the branches that add them)");
    }
}
