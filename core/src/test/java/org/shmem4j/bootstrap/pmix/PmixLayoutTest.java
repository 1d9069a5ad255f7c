package org.shmem4j.bootstrap.pmix;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shmem4j.testing.HeaderCheck;
import org.shmem4j.testing.Requirement;

/**
 * {@link Pmix} binds libpmix without its headers: this test checks every struct size, offset,
 * type code and key it hard-codes against the installed {@code <pmix.h>} ({@link HeaderCheck}).
 * Needs gcc and libpmix-dev: skipped without them, failed then under {@code SHMEM4J_REQUIRE_PMIX=1}
 * (CI).
 */
class PmixLayoutTest {
    /** Each line: a constant of {@link Pmix}, then the C expression it must equal. */
    private static final String TABLE = """
            SUCCESS             PMIX_SUCCESS
            ERR_NOT_FOUND       PMIX_ERR_NOT_FOUND
            ERR_TIMEOUT         PMIX_ERR_TIMEOUT
            PROC_SIZE           sizeof(pmix_proc_t)
            PROC_NSPACE         offsetof(pmix_proc_t, nspace)
            PROC_RANK           offsetof(pmix_proc_t, rank)
            MAX_NSLEN           PMIX_MAX_NSLEN
            RANK_WILDCARD       PMIX_RANK_WILDCARD
            VALUE_SIZE          sizeof(pmix_value_t)
            VALUE_TYPE          offsetof(pmix_value_t, type)
            VALUE_DATA          offsetof(pmix_value_t, data)
            VALUE_BO_BYTES      offsetof(pmix_value_t, data.bo.bytes)
            VALUE_BO_SIZE       offsetof(pmix_value_t, data.bo.size)
            INFO_SIZE           sizeof(pmix_info_t)
            INFO_KEY            offsetof(pmix_info_t, key)
            INFO_FLAGS          offsetof(pmix_info_t, flags)
            INFO_VALUE          offsetof(pmix_info_t, value)
            MAX_KEYLEN          PMIX_MAX_KEYLEN
            TYPE_BOOL           PMIX_BOOL
            TYPE_STRING         PMIX_STRING
            TYPE_INT            PMIX_INT
            TYPE_UINT32         PMIX_UINT32
            TYPE_BYTE_OBJECT    PMIX_BYTE_OBJECT
            TYPE_PROC           PMIX_PROC
            SCOPE_GLOBAL        PMIX_GLOBAL
            KEY_JOB_SIZE        PMIX_JOB_SIZE
            KEY_HOSTNAME        PMIX_HOSTNAME
            KEY_COLLECT_DATA    PMIX_COLLECT_DATA
            KEY_TIMEOUT         PMIX_TIMEOUT
            KEY_EVENT_AFFECTED_PROC PMIX_EVENT_AFFECTED_PROC
            KEY_EXIT_CODE       PMIX_EXIT_CODE
            EVENT_ACTION_COMPLETE PMIX_EVENT_ACTION_COMPLETE
            """;
    /**
     * 1 if the handler and completion types of {@link PmixEvents} have the C signatures its
     * descriptors assume (pointers as such, {@code pmix_status_t} as a C int, {@code size_t} as 64 bits).
     */
    private static final Map<String, Map.Entry<Object, String>> SIGNATURES = Map.of(
            "PmixEvents.HANDLER", Map.entry(1L, """
                    _Generic((pmix_notification_fn_t) 0, void (*)(size_t, int, const pmix_proc_t *, pmix_info_t *, size_t, \
                    pmix_info_t *, size_t, pmix_event_notification_cbfunc_fn_t, void *): 1, default: 0) && sizeof(size_t) == 8"""),
            "PmixEvents.COMPLETION", Map.entry(1L, """
                    _Generic((pmix_event_notification_cbfunc_fn_t) 0, void (*)(int, pmix_info_t *, size_t, pmix_op_cbfunc_t, \
                    void *, void *): 1, default: 0)"""),
            "PMIx_Register_event_handler", Map.entry(1L, """
                    _Generic(&PMIx_Register_event_handler, int (*)(int *, size_t, pmix_info_t *, size_t, \
                    pmix_notification_fn_t, pmix_hdlr_reg_cbfunc_t, void *): 1, default: 0)"""),
            "PMIx_Deregister_event_handler", Map.entry(1L, """
                    _Generic(&PMIx_Deregister_event_handler, int (*)(size_t, pmix_op_cbfunc_t, void *): 1, default: 0)"""));
    /** {@link #SIGNATURES}, and each {@link Pmix.Event}'s code against its macro. */
    private static Map<String, Map.Entry<Object, String>> extra() {
        var extra = new HashMap<>(SIGNATURES);
        for (Pmix.Event e : Pmix.Event.values()) {
            extra.put("Event." + e.name(), Map.entry((long) e.status, e.macro));
        }
        return extra;
    }

    /** Where Debian's libpmix-dev puts the headers (elsewhere they are in the default include path). */
    private static final String DEBIAN_INCLUDE = "-I/usr/lib/x86_64-linux-gnu/pmix2/include";

    @Test
    void constantsMatchTheInstalledHeaders(@TempDir Path dir) throws Exception {
        new HeaderCheck("PmixLayoutTest", "pmix.h", List.of(DEBIAN_INCLUDE), "libpmix-dev",
                missing -> Requirement.require("SHMEM4J_REQUIRE_PMIX", "PmixLayoutTest", missing))
                .verify(Pmix.class, TABLE, extra(), dir);
    }
}
