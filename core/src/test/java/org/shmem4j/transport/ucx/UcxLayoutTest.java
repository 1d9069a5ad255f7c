package org.shmem4j.transport.ucx;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Ucx} binds libucp without its headers, so the struct sizes, field offsets, flag bits and
 * enum values it hard-codes are only right if they match the C API. This test compiles a small C
 * program against the installed {@code <ucp/api/ucp.h>} that prints each one and compares. Every
 * {@code static final} int/long of {@code Ucx} must be listed in {@link #TABLE}, so a constant
 * added without a check fails here by name. Needs gcc and libucx-dev (see {@link UcxAvailable}).
 */
class UcxLayoutTest {
    /** Each line: a constant of {@link Ucx}, then the C expression it must equal. */
    private static final String TABLE = """
            API_MAJOR                         UCP_API_MAJOR
            API_MINOR                         UCP_API_MINOR
            OK                                UCS_OK
            INPROGRESS                        UCS_INPROGRESS
            ERR_BUSY                          UCS_ERR_BUSY
            PARAMS_SIZE                       sizeof(ucp_params_t)
            PARAMS_FIELD_MASK                 offsetof(ucp_params_t, field_mask)
            PARAMS_FEATURES                   offsetof(ucp_params_t, features)
            PARAMS_MT_WORKERS_SHARED          offsetof(ucp_params_t, mt_workers_shared)
            PARAM_FIELD_FEATURES              UCP_PARAM_FIELD_FEATURES
            PARAM_FIELD_MT_WORKERS_SHARED     UCP_PARAM_FIELD_MT_WORKERS_SHARED
            FEATURE_RMA                       UCP_FEATURE_RMA
            FEATURE_AMO32                     UCP_FEATURE_AMO32
            FEATURE_AMO64                     UCP_FEATURE_AMO64
            FEATURE_WAKEUP                    UCP_FEATURE_WAKEUP
            WORKER_PARAMS_SIZE                sizeof(ucp_worker_params_t)
            WORKER_FIELD_MASK                 offsetof(ucp_worker_params_t, field_mask)
            WORKER_THREAD_MODE                offsetof(ucp_worker_params_t, thread_mode)
            WORKER_PARAM_FIELD_THREAD_MODE    UCP_WORKER_PARAM_FIELD_THREAD_MODE
            THREAD_MODE_SINGLE                UCS_THREAD_MODE_SINGLE
            THREAD_MODE_SERIALIZED            UCS_THREAD_MODE_SERIALIZED
            THREAD_MODE_MULTI                 UCS_THREAD_MODE_MULTI
            EP_PARAMS_SIZE                    sizeof(ucp_ep_params_t)
            EP_FIELD_MASK                     offsetof(ucp_ep_params_t, field_mask)
            EP_ADDRESS                        offsetof(ucp_ep_params_t, address)
            EP_ERR_MODE                       offsetof(ucp_ep_params_t, err_mode)
            EP_ERR_HANDLER                    offsetof(ucp_ep_params_t, err_handler)
            EP_ERR_HANDLER_ARG                offsetof(ucp_ep_params_t, err_handler.arg)
            EP_PARAM_FIELD_REMOTE_ADDRESS     UCP_EP_PARAM_FIELD_REMOTE_ADDRESS
            EP_PARAM_FIELD_ERR_HANDLING_MODE  UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE
            EP_PARAM_FIELD_ERR_HANDLER        UCP_EP_PARAM_FIELD_ERR_HANDLER
            ERR_HANDLING_MODE_PEER            UCP_ERR_HANDLING_MODE_PEER
            MEM_MAP_PARAMS_SIZE               sizeof(ucp_mem_map_params_t)
            MEM_MAP_FIELD_MASK                offsetof(ucp_mem_map_params_t, field_mask)
            MEM_MAP_ADDRESS                   offsetof(ucp_mem_map_params_t, address)
            MEM_MAP_LENGTH                    offsetof(ucp_mem_map_params_t, length)
            MEM_MAP_PARAM_FIELD_ADDRESS       UCP_MEM_MAP_PARAM_FIELD_ADDRESS
            MEM_MAP_PARAM_FIELD_LENGTH        UCP_MEM_MAP_PARAM_FIELD_LENGTH
            REQUEST_PARAM_SIZE                sizeof(ucp_request_param_t)
            REQ_OP_ATTR_MASK                  offsetof(ucp_request_param_t, op_attr_mask)
            REQ_FLAGS                         offsetof(ucp_request_param_t, flags)
            REQ_DATATYPE                      offsetof(ucp_request_param_t, datatype)
            REQ_REPLY_BUFFER                  offsetof(ucp_request_param_t, reply_buffer)
            OP_ATTR_FIELD_DATATYPE            UCP_OP_ATTR_FIELD_DATATYPE
            OP_ATTR_FIELD_FLAGS               UCP_OP_ATTR_FIELD_FLAGS
            OP_ATTR_FIELD_REPLY_BUFFER        UCP_OP_ATTR_FIELD_REPLY_BUFFER
            EP_CLOSE_FLAG_FORCE               UCP_EP_CLOSE_FLAG_FORCE
            ATOMIC_ADD                        UCP_ATOMIC_OP_ADD
            ATOMIC_SWAP                       UCP_ATOMIC_OP_SWAP
            ATOMIC_CSWAP                      UCP_ATOMIC_OP_CSWAP
            ATOMIC_AND                        UCP_ATOMIC_OP_AND
            ATOMIC_OR                         UCP_ATOMIC_OP_OR
            ATOMIC_XOR                        UCP_ATOMIC_OP_XOR
            """;
    /** Not a field: the {@link Ucx#contig} helper, checked under this name. */
    private static final String CONTIG = "contig(8)";
    private static final long TIMEOUT_SECONDS = 60;

    @Test
    void constantsMatchTheInstalledHeaders(@TempDir Path dir) throws Exception {
        Map<String, String> table = new LinkedHashMap<>();
        TABLE.lines().map(String::strip).forEach(line -> table.put(line.split("\\s+", 2)[0], line.split("\\s+", 2)[1]));
        Map<String, Long> java = javaConstants();

        var unchecked = new TreeSet<>(java.keySet());
        unchecked.removeAll(table.keySet());
        var unknown = new TreeSet<>(table.keySet());
        unknown.removeAll(java.keySet());
        if (!unchecked.isEmpty() || !unknown.isEmpty()) {
            fail("UcxLayoutTest.TABLE does not match the constants of Ucx: no C expression for " + unchecked
                    + "; not declared in Ucx: " + unknown);
        }

        table.put(CONTIG, "ucp_dt_make_contig(8)");
        java.put(CONTIG, Ucx.contig(8));
        Map<String, Long> c = fromHeaders(table, dir);

        List<String> wrong = new ArrayList<>();
        table.forEach((name, expr) -> {
            if (!java.get(name).equals(c.get(name))) {
                wrong.add(name + " = " + java.get(name) + " in Ucx, but " + expr + " = " + c.get(name) + " in the headers");
            }
        });
        if (!wrong.isEmpty()) {
            fail("Ucx disagrees with <ucp/api/ucp.h>:\n  " + String.join("\n  ", wrong));
        }
    }

    /** Every {@code static final} int or long declared in {@link Ucx}, by name. */
    private static Map<String, Long> javaConstants() throws IllegalAccessException {
        Map<String, Long> values = new LinkedHashMap<>();
        for (Field f : Ucx.class.getDeclaredFields()) {
            int m = f.getModifiers();
            if (Modifier.isStatic(m) && Modifier.isFinal(m) && (f.getType() == int.class || f.getType() == long.class)) {
                values.put(f.getName(), ((Number) f.get(null)).longValue());
            }
        }
        return values;
    }

    /** Compiles and runs a C program printing {@code NAME=value} for each entry; skips if gcc or the headers are missing. */
    private static Map<String, Long> fromHeaders(Map<String, String> table, Path dir) throws Exception {
        StringBuilder src = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n#include <ucp/api/ucp.h>\nint main(void) {\n");
        table.forEach((name, expr) -> src.append("    printf(\"%s=%lld\\n\", \"").append(name)
                .append("\", (long long) (").append(expr).append("));\n"));
        Files.writeString(dir.resolve("layout.c"), src.append("    return 0;\n}\n"));

        Output gcc;
        try {
            gcc = run(dir, "gcc", "-o", "layout", "layout.c");
        } catch (IOException e) {
            UcxAvailable.require("UcxLayoutTest", "gcc could not be run (" + e.getMessage() + "); install gcc");
            throw e;
        }
        if (gcc.exit != 0) {
            if (gcc.text.contains("ucp/api/ucp.h: No such file")) {
                UcxAvailable.require("UcxLayoutTest", "the UCX headers (<ucp/api/ucp.h>) were not found; install libucx-dev");
            }
            fail("gcc could not compile " + dir.resolve("layout.c") + ":\n" + gcc.text);
        }
        Output layout = run(dir, dir.resolve("layout").toString());
        if (layout.exit != 0) {
            fail("the compiled layout program exited with " + layout.exit + ":\n" + layout.text);
        }
        Map<String, Long> values = new LinkedHashMap<>();
        layout.text.lines().forEach(line -> values.put(line.substring(0, line.indexOf('=')),
                Long.parseLong(line.substring(line.indexOf('=') + 1))));
        return values;
    }

    private record Output(int exit, String text) {}

    /** Runs a command in {@code dir}, giving it {@value #TIMEOUT_SECONDS} s; its exit status and output (stdout and stderr). */
    private static Output run(Path dir, String... command) throws IOException, InterruptedException {
        Path out = dir.resolve("out.txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile());
        pb.environment().put("LC_ALL", "C"); // gcc's messages in English, for the missing-header check
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
        }
        return new Output(p.exitValue(), Files.readString(out));
    }
}
