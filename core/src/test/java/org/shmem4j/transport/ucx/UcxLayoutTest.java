package org.shmem4j.transport.ucx;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shmem4j.testing.HeaderCheck;

/**
 * {@link Ucx} binds libucp without its headers, so the struct sizes, field offsets, flag bits and
 * enum values it hard-codes are only right if they match the C API. This test compiles a small C
 * program against the installed {@code <ucp/api/ucp.h>} that prints each one and compares. Every
 * {@code static final} int/long of {@code Ucx} must be listed in {@link #TABLE}, so a constant
 * added without a check fails here by name ({@link HeaderCheck}). Needs gcc and libucx-dev (see
 * {@link UcxAvailable}).
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
            FEATURE_AM                        UCP_FEATURE_AM
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
            AM_HANDLER_PARAM_SIZE             sizeof(ucp_am_handler_param_t)
            AM_HANDLER_FIELD_MASK             offsetof(ucp_am_handler_param_t, field_mask)
            AM_HANDLER_ID                     offsetof(ucp_am_handler_param_t, id)
            AM_HANDLER_FLAGS                  offsetof(ucp_am_handler_param_t, flags)
            AM_HANDLER_CB                     offsetof(ucp_am_handler_param_t, cb)
            AM_HANDLER_ARG                    offsetof(ucp_am_handler_param_t, arg)
            AM_HANDLER_FIELD_ID               UCP_AM_HANDLER_PARAM_FIELD_ID
            AM_HANDLER_FIELD_FLAGS            UCP_AM_HANDLER_PARAM_FIELD_FLAGS
            AM_HANDLER_FIELD_CB               UCP_AM_HANDLER_PARAM_FIELD_CB
            AM_HANDLER_FIELD_ARG              UCP_AM_HANDLER_PARAM_FIELD_ARG
            AM_FLAG_WHOLE_MSG                 UCP_AM_FLAG_WHOLE_MSG
            AM_RECV_PARAM_SIZE                sizeof(ucp_am_recv_param_t)
            AM_RECV_ATTR                      offsetof(ucp_am_recv_param_t, recv_attr)
            AM_RECV_REPLY_EP                  offsetof(ucp_am_recv_param_t, reply_ep)
            AM_RECV_ATTR_FIELD_REPLY_EP       UCP_AM_RECV_ATTR_FIELD_REPLY_EP
            AM_RECV_ATTR_FLAG_RNDV            UCP_AM_RECV_ATTR_FLAG_RNDV
            AM_SEND_FLAG_REPLY                UCP_AM_SEND_FLAG_REPLY
            AM_SEND_FLAG_EAGER                UCP_AM_SEND_FLAG_EAGER
            ATOMIC_ADD                        UCP_ATOMIC_OP_ADD
            ATOMIC_SWAP                       UCP_ATOMIC_OP_SWAP
            ATOMIC_CSWAP                      UCP_ATOMIC_OP_CSWAP
            ATOMIC_AND                        UCP_ATOMIC_OP_AND
            ATOMIC_OR                         UCP_ATOMIC_OP_OR
            ATOMIC_XOR                        UCP_ATOMIC_OP_XOR
            """;
    /** Not a field: the {@link Ucx#contig} helper, checked under this name. */
    private static final String CONTIG = "contig(8)";

    @Test
    void constantsMatchTheInstalledHeaders(@TempDir Path dir) throws Exception {
        new HeaderCheck("UcxLayoutTest", "ucp/api/ucp.h", List.of(), "libucx-dev",
                missing -> UcxAvailable.require("UcxLayoutTest", missing))
                .verify(Ucx.class, TABLE, Map.of(CONTIG, Map.entry(Ucx.contig(8), "ucp_dt_make_contig(8)")), dir);
    }
}
