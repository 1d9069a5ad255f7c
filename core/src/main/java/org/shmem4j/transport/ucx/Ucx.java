package org.shmem4j.transport.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.shmem4j.ShmemException;
import org.shmem4j.foreign.NativeLibrary;

/**
 * The part of UCX's protocol layer (libucp 1.13, the API version the layouts below were written
 * for) that shmem4j calls, bound through {@code java.lang.foreign}. Struct offsets are those of
 * the x86_64 LP64 headers; {@code UcxLayoutTest} compares them with the installed headers.
 * Loading is guarded: libucs installs its own SIGSEGV/SIGBUS handlers when loaded, which would
 * replace the JVM's (which it needs for implicit null checks), so they are switched off first.
 */
final class Ucx {
    private Ucx() {}

    static final int API_MAJOR = 1, API_MINOR = 13;

    static final int OK = 0, INPROGRESS = 1, ERR_BUSY = -15;

    /** {@code ucs_status_t}: a packed enum, one signed byte (UCS_S_PACKED). */
    static final ValueLayout.OfByte STATUS = ValueLayout.JAVA_BYTE;

    /**
     * Whether {@code status} says the peer (or the way to it) is gone rather than that this PE
     * misused UCX: I/O error, unreachable, timed out, rejected, not connected, connection reset,
     * and UCX's link and endpoint failure ranges (ucs/type/status.h).
     */
    static boolean lostPeer(int status) {
        return status == -3 || status == -6 || status == -20 || (status <= -23 && status >= -25)
                || (status <= -40 && status >= -89);
    }

    // ucp_params_t (80 bytes)
    static final long PARAMS_SIZE = 80, PARAMS_FIELD_MASK = 0, PARAMS_FEATURES = 8, PARAMS_MT_WORKERS_SHARED = 48;
    static final long PARAM_FIELD_FEATURES = 1, PARAM_FIELD_MT_WORKERS_SHARED = 1 << 5;
    static final long FEATURE_RMA = 1 << 1, FEATURE_AMO32 = 1 << 2, FEATURE_AMO64 = 1 << 3, FEATURE_WAKEUP = 1 << 4,
            FEATURE_AM = 1 << 6;
    // ucp_worker_params_t (200 bytes)
    static final long WORKER_PARAMS_SIZE = 200, WORKER_FIELD_MASK = 0, WORKER_THREAD_MODE = 8;
    static final long WORKER_PARAM_FIELD_THREAD_MODE = 1;
    static final int THREAD_MODE_SINGLE = 0, THREAD_MODE_SERIALIZED = 1, THREAD_MODE_MULTI = 2;
    // ucp_ep_params_t (104 bytes)
    static final long EP_PARAMS_SIZE = 104, EP_FIELD_MASK = 0, EP_ADDRESS = 8, EP_ERR_MODE = 16, EP_ERR_HANDLER = 24,
            EP_ERR_HANDLER_ARG = 32;
    static final long EP_PARAM_FIELD_REMOTE_ADDRESS = 1, EP_PARAM_FIELD_ERR_HANDLING_MODE = 1 << 1, EP_PARAM_FIELD_ERR_HANDLER = 1 << 2;
    static final int ERR_HANDLING_MODE_PEER = 1;
    // ucp_mem_map_params_t (40 bytes)
    static final long MEM_MAP_PARAMS_SIZE = 40, MEM_MAP_FIELD_MASK = 0, MEM_MAP_ADDRESS = 8, MEM_MAP_LENGTH = 16;
    static final long MEM_MAP_PARAM_FIELD_ADDRESS = 1, MEM_MAP_PARAM_FIELD_LENGTH = 1 << 1;
    // ucp_request_param_t (72 bytes); op_attr_mask and flags are 32-bit
    static final long REQUEST_PARAM_SIZE = 72, REQ_OP_ATTR_MASK = 0, REQ_FLAGS = 4, REQ_DATATYPE = 24, REQ_REPLY_BUFFER = 40;
    static final int OP_ATTR_FIELD_DATATYPE = 1 << 3, OP_ATTR_FIELD_FLAGS = 1 << 4, OP_ATTR_FIELD_REPLY_BUFFER = 1 << 5;
    static final int EP_CLOSE_FLAG_FORCE = 1;
    // ucp_am_handler_param_t (32 bytes), ucp_am_recv_param_t (16 bytes), active message flags
    static final long AM_HANDLER_PARAM_SIZE = 32, AM_HANDLER_FIELD_MASK = 0, AM_HANDLER_ID = 8, AM_HANDLER_FLAGS = 12,
            AM_HANDLER_CB = 16, AM_HANDLER_ARG = 24;
    static final long AM_HANDLER_FIELD_ID = 1, AM_HANDLER_FIELD_FLAGS = 1 << 1, AM_HANDLER_FIELD_CB = 1 << 2,
            AM_HANDLER_FIELD_ARG = 1 << 3;
    static final int AM_FLAG_WHOLE_MSG = 1;
    static final long AM_RECV_PARAM_SIZE = 16, AM_RECV_ATTR = 0, AM_RECV_REPLY_EP = 8;
    static final long AM_RECV_ATTR_FIELD_REPLY_EP = 1, AM_RECV_ATTR_FLAG_RNDV = 1 << 17;
    static final int AM_SEND_FLAG_REPLY = 1, AM_SEND_FLAG_EAGER = 1 << 1;
    // ucp_atomic_op_t
    static final int ATOMIC_ADD = 0, ATOMIC_SWAP = 1, ATOMIC_CSWAP = 2, ATOMIC_AND = 3, ATOMIC_OR = 4, ATOMIC_XOR = 5;

    /** {@code UCS_PTR_IS_ERR}: a request pointer returned by an {@code _nbx} call that is a status code (an error) instead. */
    static boolean isError(MemorySegment request) {
        return Long.compareUnsigned(request.address(), -100L) >= 0;
    }

    /** {@code ucp_dt_make_contig(bytes)}: a contiguous datatype of {@code bytes}-byte elements. */
    static long contig(int bytes) {
        return (long) bytes << 3;
    }

    /** Why UCX cannot be used here, or empty when it can (loads it on first call). */
    static Optional<String> unavailable() {
        return Library.FAILURE == null ? Optional.empty() : Optional.of(Library.FAILURE);
    }

    /** The loaded library's version, e.g. {@code "1.13.1"}, or why UCX cannot be used here. */
    static String describe() {
        return unavailable().map(why -> "not available: " + why)
                .orElseGet(() -> "UCX " + NativeLibrary.string(Library.INSTANCE.versionString));
    }

    /** The loaded library, or an exception saying what to install or enable. */
    static Library lib() {
        if (Library.FAILURE != null) {
            throw new ShmemException("shmem_init: the UCX network engine cannot be used: " + Library.FAILURE);
        }
        return Library.INSTANCE;
    }

    /** The bound functions; loaded once per process, on first use. */
    static final class Library {
        private static final NativeLibrary<Library> LOADED =
                NativeLibrary.load("libucp.so.0", "install UCX, e.g. apt-get install libucx0", Library::new);
        static final String FAILURE = LOADED.failure();
        static final Library INSTANCE = LOADED.library();

        final MethodHandle configRead, configModify, configRelease, initVersion, cleanup;
        final MethodHandle workerCreate, workerDestroy, workerGetAddress, workerReleaseAddress, workerProgress;
        final MethodHandle workerGetEfd, workerArm, workerSignal, workerFence, workerFlushNbx;
        final MethodHandle epCreate, epCloseNbx, epFlushNbx, epRkeyUnpack, rkeyDestroy;
        final MethodHandle memMap, memUnmap, rkeyPack, rkeyBufferRelease;
        final MethodHandle putNbx, getNbx, atomicOpNbx, requestCheckStatus, requestFree;
        final MethodHandle setAmHandler, amSendNbx;
        final MethodHandle statusString, poll, versionString;

        private Library() {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            MethodHandle setenv = linker.downcallHandle(libc.find("setenv").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
            try (Arena a = Arena.ofConfined()) {
                // Before libucs is loaded: its constructor would install handlers for these signals.
                int rc = (int) setenv.invokeExact(a.allocateFrom("UCX_ERROR_SIGNALS"), a.allocateFrom(""), 1);
                if (rc != 0) {
                    throw new IllegalStateException("setenv failed");
                }
            } catch (Throwable t) {
                throw t instanceof RuntimeException re ? re : new IllegalStateException(t);
            }
            SymbolLookup ucs = SymbolLookup.libraryLookup("libucs.so.0", Arena.global());
            SymbolLookup ucp = SymbolLookup.libraryLookup("libucp.so.0", Arena.global());
            Binder b = new Binder(linker, ucp);
            Binder s = new Binder(linker, ucs);
            // Belt and braces: whatever handlers libucs installed anyway are removed.
            MethodHandle disable = s.fn("ucs_debug_disable_signals", FunctionDescriptor.ofVoid());
            try {
                disable.invokeExact();
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            statusString = s.fn("ucs_status_string", FunctionDescriptor.of(ADDRESS, JAVA_INT));
            versionString = b.fn("ucp_get_version_string", FunctionDescriptor.of(ADDRESS));
            configRead = b.status("ucp_config_read", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS, ADDRESS));
            configModify = b.status("ucp_config_modify", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS, ADDRESS));
            configRelease = b.fn("ucp_config_release", FunctionDescriptor.ofVoid(ADDRESS));
            initVersion = b.status("ucp_init_version", FunctionDescriptor.of(STATUS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
            cleanup = b.fn("ucp_cleanup", FunctionDescriptor.ofVoid(ADDRESS));
            workerCreate = b.status("ucp_worker_create", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS, ADDRESS));
            workerDestroy = b.fn("ucp_worker_destroy", FunctionDescriptor.ofVoid(ADDRESS));
            workerGetAddress = b.status("ucp_worker_get_address", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS, ADDRESS));
            workerReleaseAddress = b.fn("ucp_worker_release_address", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
            workerProgress = b.fn("ucp_worker_progress", FunctionDescriptor.of(JAVA_INT, ADDRESS));
            workerGetEfd = b.status("ucp_worker_get_efd", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS));
            workerArm = b.status("ucp_worker_arm", FunctionDescriptor.of(STATUS, ADDRESS));
            workerSignal = b.status("ucp_worker_signal", FunctionDescriptor.of(STATUS, ADDRESS));
            workerFence = b.status("ucp_worker_fence", FunctionDescriptor.of(STATUS, ADDRESS));
            workerFlushNbx = b.fn("ucp_worker_flush_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
            epCreate = b.status("ucp_ep_create", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS, ADDRESS));
            epCloseNbx = b.fn("ucp_ep_close_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
            epFlushNbx = b.fn("ucp_ep_flush_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
            epRkeyUnpack = b.status("ucp_ep_rkey_unpack", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS, ADDRESS));
            rkeyDestroy = b.fn("ucp_rkey_destroy", FunctionDescriptor.ofVoid(ADDRESS));
            memMap = b.status("ucp_mem_map", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS, ADDRESS));
            memUnmap = b.status("ucp_mem_unmap", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS));
            rkeyPack = b.status("ucp_rkey_pack", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            rkeyBufferRelease = b.fn("ucp_rkey_buffer_release", FunctionDescriptor.ofVoid(ADDRESS));
            FunctionDescriptor rma = FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS);
            setAmHandler = b.status("ucp_worker_set_am_recv_handler", FunctionDescriptor.of(STATUS, ADDRESS, ADDRESS));
            amSendNbx = b.fn("ucp_am_send_nbx",
                    FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
            putNbx = b.fn("ucp_put_nbx", rma);
            getNbx = b.fn("ucp_get_nbx", rma);
            atomicOpNbx = b.fn("ucp_atomic_op_nbx",
                    FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
            requestCheckStatus = b.status("ucp_request_check_status", FunctionDescriptor.of(STATUS, ADDRESS));
            requestFree = b.fn("ucp_request_free", FunctionDescriptor.ofVoid(ADDRESS));
            poll = linker.downcallHandle(libc.find("poll").orElseThrow(), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        }

        /** UCX's name for a status. */
        String describe(int status) {
            try {
                MemorySegment text = (MemorySegment) statusString.invokeExact(status);
                return text.reinterpret(256).getString(0) + " (" + status + ")";
            } catch (Throwable t) {
                return "status " + status;
            }
        }

        /** Throws naming {@code call} unless {@code status} is OK. */
        void check(int status, String call) {
            if (status != OK) {
                throw new ShmemException(call + " failed: " + describe(status));
            }
        }
    }

    /** Looks functions up in one library; a missing one is an error naming it. */
    private record Binder(Linker linker, SymbolLookup lookup) {
        MethodHandle fn(String name, FunctionDescriptor descriptor) {
            return NativeLibrary.bind(linker, lookup, name, descriptor, "UCX 1.13 or later needed");
        }

        /**
         * A function returning {@code ucs_status_t}, called as returning int: the byte is
         * sign-extended here, because the upper bits of the native return register are undefined
         * (read as an int, UCS_ERR_ENDPOINT_TIMEOUT came back as 176 and was not seen as a lost peer).
         */
        MethodHandle status(String name, FunctionDescriptor descriptor) {
            MethodHandle h = fn(name, descriptor);
            return h.asType(h.type().changeReturnType(int.class));
        }
    }
}
