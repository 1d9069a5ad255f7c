package org.shmem4j.litmus;

import java.util.List;

/**
 * One operation of a litmus program's per-round script. Every write puts the round number
 * {@code k} into words of its own (fresh in every round), so any word is either 0 or {@code k}
 * and an observer can say exactly which round's write it saw. Contexts are numbered: 0 is the
 * default context, 1 a context the PE created.
 */
sealed interface Op {
    /** A context number meaning "every context": a memory store is ordered by the fence or quiet of any. */
    int ANY_CONTEXT = -1;

    /** The operation as a line of the program's listing, {@code k} standing for the round. */
    String render();

    private static String ctxName(int ctx) {
        return ctx == ANY_CONTEXT ? "store" : "ctx" + ctx;
    }

    private static String wordRange(int slot, int count) {
        return count == 1 ? "w" + slot : "w" + slot + "..w" + (slot + count - 1);
    }

    private static String flagNote(boolean awaited, int pe) {
        return awaited ? "   <- a flag: PE " + pe + " waits for it" : "";
    }

    /** An operation that writes {@code k} into {@link #words()} words from {@link #slot()} at PE {@link #pe()}. */
    sealed interface Write extends Op {
        /** The context it is issued on, or {@link #ANY_CONTEXT} for a store. */
        int ctx();

        /** The PE whose memory it writes (the target). */
        int pe();

        /** Its first word in the round's block. */
        int slot();

        /** How many words it writes (each gets {@code k}). */
        int words();

        /** The word an observer waits for when this write is {@link #awaited()}. */
        default int flagWord() {
            return slot();
        }

        /** Its data words: all of them, but for a put-with-signal's signal. */
        default int dataWords() {
            return words();
        }

        /** This write is a flag: its target waits (wait_until) for it every round, then checks. */
        boolean awaited();
    }

    /** {@code p}, a blocking {@code put} or a {@code put_nbi} of long words. */
    record Put(int ctx, int pe, int slot, int words, Form form, boolean awaited) implements Write {
        enum Form { P, PUT, PUT_NBI }

        @Override
        public String render() {
            String name = switch (form) {
                case P -> "p";
                case PUT -> "put";
                case PUT_NBI -> "put_nbi";
            };
            return ctxName(ctx) + "." + name + "(" + wordRange(slot, words) + " = k, PE " + pe + ")" + flagNote(awaited, pe);
        }
    }

    /** An AMO on one long word that leaves {@code k} in it (the word holds 0 before). */
    record Amo(int ctx, int pe, int slot, Kind kind, Fetch fetch, boolean awaited) implements Write {
        /** Every kind turns a 0 into {@code k}: add k, set k, or k, xor k, compare-swap 0 to k. */
        enum Kind { ADD, SET, OR, XOR, COMPARE_SWAP }

        /** Non-fetching, fetching (the old value returned), fetching nbi (the old value delivered at quiet). */
        enum Fetch { NONE, BLOCKING, NBI }

        @Override
        public int words() {
            return 1;
        }

        @Override
        public String render() {
            String name = switch (kind) {
                case ADD -> fetch == Fetch.NONE ? "atomic_add" : "atomic_fetch_add";
                case SET -> fetch == Fetch.NONE ? "atomic_set" : "atomic_swap";
                case OR -> fetch == Fetch.NONE ? "atomic_or" : "atomic_fetch_or";
                case XOR -> fetch == Fetch.NONE ? "atomic_xor" : "atomic_fetch_xor";
                case COMPARE_SWAP -> "atomic_compare_swap";
            };
            String returns = switch (fetch) {
                case NONE -> "";
                case BLOCKING -> " returns 0";
                case NBI -> " fetches 0 by quiet";
            };
            return ctxName(ctx) + "." + name + (fetch == Fetch.NBI ? "_nbi" : "") + "(" + wordRange(slot, 1) + " <- k, PE " + pe + ")"
                    + returns + flagNote(awaited, pe);
        }
    }

    /** {@code put_signal} (or its nbi form): data words, then the signal word right after them. */
    record PutSignal(int ctx, int pe, int slot, int dataWords, boolean add, boolean nbi, boolean awaited) implements Write {
        @Override
        public int words() {
            return dataWords + 1;
        }

        @Override
        public int flagWord() {
            return slot + dataWords;
        }

        @Override
        public String render() {
            return ctxName(ctx) + ".put_signal" + (nbi ? "_nbi" : "") + "(" + wordRange(slot, dataWords) + " = k, signal "
                    + wordRange(flagWord(), 1) + (add ? " += k" : " = k") + ", PE " + pe + ")" + flagNote(awaited, pe);
        }
    }

    /** {@code signal_add} or {@code signal_set}. */
    record Signal(int ctx, int pe, int slot, boolean add, boolean awaited) implements Write {
        @Override
        public int words() {
            return 1;
        }

        @Override
        public String render() {
            return ctxName(ctx) + ".signal_" + (add ? "add" : "set") + "(" + wordRange(slot, 1) + (add ? " += k" : " = k")
                    + ", PE " + pe + ")" + flagNote(awaited, pe);
        }
    }

    /** A plain store into this PE's own symmetric memory. */
    record Store(int pe, int slot) implements Write {
        @Override
        public int ctx() {
            return ANY_CONTEXT;
        }

        @Override
        public int words() {
            return 1;
        }

        @Override
        public boolean awaited() {
            return false;
        }

        @Override
        public String render() {
            return "store " + wordRange(slot, 1) + " = k (own memory, PE " + pe + ")";
        }
    }

    /** A blocking or nbi get of the data words of this PE's earlier write {@code [of]}, from its target. */
    record Get(int ctx, int of, boolean nbi) implements Op {
        @Override
        public String render() {
            return ctxName(ctx) + ".get" + (nbi ? "_nbi" : "") + "(data of [" + of + "])";
        }
    }

    /**
     * A blocking get of the first word of another PE's write {@code [of]} (a put or {@code p}),
     * racing it; the value read is kept in this PE's word {@link #slot()} for the store-buffering
     * check at the end of the program.
     */
    record CrossGet(int ctx, int writer, int of, int slot) implements Op {
        @Override
        public String render() {
            return ctxName(ctx) + ".g(first word of PE " + writer + "'s [" + of + "]) kept in " + wordRange(slot, 1);
        }
    }

    /** {@code atomic_fetch} of an earlier AMO's word (reads an AMO's word atomically, as the spec asks). */
    record AmoFetch(int ctx, int of) implements Op {
        @Override
        public String render() {
            return ctxName(ctx) + ".atomic_fetch(word of [" + of + "])";
        }
    }

    record Fence(int ctx) implements Op {
        @Override
        public String render() {
            return ctxName(ctx) + ".fence()";
        }
    }

    record Quiet(int ctx) implements Op {
        @Override
        public String render() {
            return ctxName(ctx) + ".quiet()";
        }
    }

    record PeQuiet(int ctx, List<Integer> pes) implements Op {
        @Override
        public String render() {
            return ctxName(ctx) + ".pe_quiet(PEs " + pes + ")";
        }
    }
}
