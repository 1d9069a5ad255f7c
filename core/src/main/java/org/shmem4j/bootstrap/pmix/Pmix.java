package org.shmem4j.bootstrap.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.Optional;
import org.shmem4j.ShmemException;
import org.shmem4j.foreign.NativeLibrary;

/**
 * The part of the PMIx client API (libpmix.so.2, PMIx 4.x) that shmem4j calls, bound through
 * {@code java.lang.foreign}. Struct offsets are those of the x86_64 LP64 headers;
 * {@code PmixLayoutTest} compares every constant here with the installed headers. The library is
 * loaded on first use only, so a program that never runs under PMIx never needs it.
 */
final class Pmix {
    private Pmix() {}

    static final int SUCCESS = 0, ERR_NOT_FOUND = -46, ERR_TIMEOUT = -24;
    // pmix_proc_t: char nspace[PMIX_MAX_NSLEN + 1] then uint32 rank
    static final long PROC_SIZE = 260, PROC_NSPACE = 0, PROC_RANK = 256;
    static final int MAX_NSLEN = 255;
    static final long RANK_WILDCARD = 0xFFFF_FFFEL; // uint32, written as an int
    // pmix_value_t: uint16 type then the data union
    static final long VALUE_SIZE = 32, VALUE_TYPE = 0, VALUE_DATA = 8;
    static final long VALUE_BO_BYTES = 8, VALUE_BO_SIZE = 16; // data.bo.bytes, data.bo.size
    // pmix_info_t: char key[PMIX_MAX_KEYLEN + 1], uint32 flags, then a pmix_value_t
    static final long INFO_SIZE = 552, INFO_KEY = 0, INFO_FLAGS = 512, INFO_VALUE = 520;
    static final int MAX_KEYLEN = 511;
    // pmix_data_type_t codes and pmix_scope_t
    static final int TYPE_BOOL = 1, TYPE_STRING = 3, TYPE_INT = 6, TYPE_UINT32 = 14, TYPE_BYTE_OBJECT = 27, TYPE_PROC = 22;
    static final int SCOPE_GLOBAL = 3;
    /** What an event handler tells PMIx when it is done with an event. */
    static final int EVENT_ACTION_COMPLETE = -334;

    static final String KEY_JOB_SIZE = "pmix.job.size";
    static final String KEY_HOSTNAME = "pmix.hname";
    static final String KEY_COLLECT_DATA = "pmix.collect";
    static final String KEY_TIMEOUT = "pmix.timeout";
    static final String KEY_EVENT_AFFECTED_PROC = "pmix.evproc";
    static final String KEY_EXIT_CODE = "pmix.exit.code";

    /**
     * The events a PE registers for ({@link PmixEvents}), each with the name of its macro (PMIx 4
     * moved some to {@code pmix_deprecated.h} under their PMIx 3 names; the codes stayed).
     */
    enum Event {
        PROC_ABORTED(-7, "PMIX_ERR_PROC_ABORTED", Concern.PEER_FAILED),
        PROC_REQUESTED_ABORT(-8, "PMIX_ERR_PROC_REQUESTED_ABORT", Concern.PEER_FAILED),
        PROC_ABORTING(-9, "PMIX_ERR_PROC_ABORTING", Concern.PEER_FAILED),
        PROC_TERM_WO_SYNC(-200, "PMIX_ERR_PROC_TERM_WO_SYNC", Concern.PEER_FAILED),
        PROC_KILLED_BY_CMD(-400, "PMIX_ERR_PROC_KILLED_BY_CMD", Concern.PEER_FAILED),
        PROC_ABORTED_BY_SIG(-402, "PMIX_ERR_PROC_ABORTED_BY_SIG", Concern.PEER_FAILED),
        EXIT_NONZERO_TERM(-404, "PMIX_ERR_EXIT_NONZERO_TERM", Concern.PEER_FAILED),
        PROC_TERMINATED(-201, "PMIX_EVENT_PROC_TERMINATED", Concern.PEER_ENDED),
        JOB_END(-145, "PMIX_EVENT_JOB_END", Concern.JOB_ENDED), // PMIx 3's PMIX_ERR_JOB_TERMINATED
        LOST_CONNECTION(-61, "PMIX_ERR_LOST_CONNECTION", Concern.SERVER_LOST),
        LOST_CONNECTION_TO_SERVER(-101, "PMIX_ERR_LOST_CONNECTION_TO_SERVER", Concern.SERVER_LOST); // PMIx 3's code

        /** What an event is about: a peer that failed, one that ended (a failure only with a non-zero exit code), the job, the server. */
        enum Concern { PEER_FAILED, PEER_ENDED, JOB_ENDED, SERVER_LOST }

        final int status;
        final String macro;
        final Concern concern;

        Event(int status, String macro, Concern concern) {
            this.status = status;
            this.macro = macro;
            this.concern = concern;
        }

        /** The event with code {@code status}, if it is one of these. */
        static Optional<Event> of(int status) {
            return Arrays.stream(values()).filter(e -> e.status == status).findFirst();
        }
    }

    /** The loaded library's version string, or why PMIx cannot be used here. */
    static String describe() {
        return Library.FAILURE != null ? "not available: " + Library.FAILURE
                : NativeLibrary.string(Library.INSTANCE.version);
    }

    /** The loaded library, or an exception naming {@code routine} and saying what to install or enable. */
    static Library lib(String routine) {
        if (Library.FAILURE != null) {
            throw new ShmemException(routine + ": the PMIx environment is set (started by srun --mpi=pmix or mpirun), but "
                    + Library.FAILURE);
        }
        return Library.INSTANCE;
    }

    /** The bound functions; loaded once per process, on first use. */
    static final class Library {
        private static final NativeLibrary<Library> LOADED =
                NativeLibrary.load("libpmix.so.2", "install PMIx, e.g. apt-get install libpmix2", Library::new);
        static final String FAILURE = LOADED.failure();
        static final Library INSTANCE = LOADED.library();

        final MethodHandle init, finalize, abort, put, commit, fence, get, registerEventHandler, deregisterEventHandler;
        /** Optional: an older or trimmed library still works without them (error codes stay numeric, values leak). */
        final Optional<MethodHandle> errorString, valueDestruct;
        final MethodHandle free, version;

        private Library() {
            Linker linker = Linker.nativeLinker();
            SymbolLookup pmix = SymbolLookup.libraryLookup("libpmix.so.2", Arena.global());
            init = bind(linker, pmix, "PMIx_Init", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
            finalize = bind(linker, pmix, "PMIx_Finalize", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
            abort = bind(linker, pmix, "PMIx_Abort", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
            put = bind(linker, pmix, "PMIx_Put", FunctionDescriptor.of(JAVA_INT, JAVA_BYTE, ADDRESS, ADDRESS));
            commit = bind(linker, pmix, "PMIx_Commit", FunctionDescriptor.of(JAVA_INT));
            fence = bind(linker, pmix, "PMIx_Fence", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
            version = bind(linker, pmix, "PMIx_Get_version", FunctionDescriptor.of(ADDRESS));
            get = bind(linker, pmix, "PMIx_Get", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
            registerEventHandler = bind(linker, pmix, "PMIx_Register_event_handler",
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS));
            deregisterEventHandler = bind(linker, pmix, "PMIx_Deregister_event_handler",
                    FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
            errorString = pmix.find("PMIx_Error_string")
                    .map(s -> linker.downcallHandle(s, FunctionDescriptor.of(ADDRESS, JAVA_INT)));
            valueDestruct = pmix.find("PMIx_Value_destruct").map(s -> linker.downcallHandle(s, FunctionDescriptor.ofVoid(ADDRESS)));
            free = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(), FunctionDescriptor.ofVoid(ADDRESS));
        }

        private static MethodHandle bind(Linker linker, SymbolLookup lookup, String name, FunctionDescriptor descriptor) {
            return NativeLibrary.bind(linker, lookup, name, descriptor, "PMIx 4 or later needed");
        }

        /** PMIx's name for a status. */
        String describe(int status) {
            if (errorString.isPresent()) {
                try {
                    MemorySegment text = (MemorySegment) errorString.get().invokeExact(status);
                    if (!text.equals(MemorySegment.NULL)) {
                        return text.reinterpret(256).getString(0) + " (" + status + ")";
                    }
                } catch (Throwable t) {
                    // the number alone then
                }
            }
            return "status " + status;
        }

        /** Throws naming {@code call} unless {@code status} is success. */
        void check(int status, String call) {
            if (status != SUCCESS) {
                throw new ShmemException(call + " failed: " + describe(status));
            }
        }

        /** Releases a {@code pmix_value_t} that {@code PMIx_Get} allocated. */
        void release(MemorySegment value) throws Throwable {
            if (valueDestruct.isPresent()) {
                valueDestruct.get().invokeExact(value);
            }
            free.invokeExact(value);
        }
    }

    /** Writes a {@code pmix_info_t} with a boolean value at {@code info}. */
    static void boolInfo(MemorySegment info, String key, boolean value) {
        info.fill((byte) 0);
        info.setString(INFO_KEY, key);
        info.set(JAVA_SHORT, INFO_VALUE + VALUE_TYPE, (short) TYPE_BOOL);
        info.set(JAVA_BYTE, INFO_VALUE + VALUE_DATA, (byte) (value ? 1 : 0));
    }

    /** Writes a {@code pmix_info_t} with an int value at {@code info}. */
    static void intInfo(MemorySegment info, String key, int value) {
        info.fill((byte) 0);
        info.setString(INFO_KEY, key);
        info.set(JAVA_SHORT, INFO_VALUE + VALUE_TYPE, (short) TYPE_INT);
        info.set(JAVA_INT, INFO_VALUE + VALUE_DATA, value);
    }

    /** Writes a {@code pmix_proc_t} naming {@code rank} of namespace {@code nspace} at {@code proc}. */
    static void proc(MemorySegment proc, String nspace, long rank) {
        proc.fill((byte) 0);
        proc.setString(PROC_NSPACE, nspace);
        proc.set(JAVA_INT, PROC_RANK, (int) rank);
    }
}
