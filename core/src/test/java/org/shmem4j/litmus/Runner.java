package org.shmem4j.litmus;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.shmem4j.Cmp;
import org.shmem4j.Context;
import org.shmem4j.Shmem;
import org.shmem4j.SignalOp;
import org.shmem4j.SymmetricLongArray;
import org.shmem4j.litmus.Op.Amo;
import org.shmem4j.litmus.Op.Write;
import org.shmem4j.litmus.Oracle.Await;
import org.shmem4j.litmus.Oracle.Expect;
import org.shmem4j.litmus.Oracle.Reason;

/**
 * Runs one litmus program on this PE: every round its script, then the waits for the flags
 * addressed to it with the oracle's checks; at the end a quiet of both contexts, a barrier, and
 * the check that every write to this PE arrived exactly once. A failed check throws an
 * {@link AssertionError} saying the round, the operations involved and why the value was due.
 */
final class Runner {
    /** An nbi result due at a quiet of {@code ctx} (a get's also at a pe_quiet of its target). */
    private record Pending(int ctx, int target, boolean byPeQuiet, long[] result, long expected, Supplier<String> what) {}

    private final Shmem shmem;
    /** Context 0 is the default context, 1 the PE's created one. */
    private final Context[] contexts;
    private final Oracle.Plan plan;
    private final Program program;
    private final int me;
    private final List<Pending> pending = new ArrayList<>();
    private SymmetricLongArray memory;
    private int round;
    private long checks;

    Runner(Shmem shmem, Context created, Oracle.Plan plan) {
        this.shmem = shmem;
        this.contexts = new Context[] {shmem, created};
        this.plan = plan;
        this.program = plan.program();
        this.me = shmem.myPe();
    }

    /** Runs the program; returns how many checks it made on this PE. */
    long run() {
        memory = shmem.calloc(ValueLayout.JAVA_LONG, (long) program.rounds() * program.words());
        shmem.barrierAll();
        List<Op> script = program.script(me);
        for (round = 1; round <= program.rounds(); round++) {
            for (int i = 0; i < script.size(); i++) {
                execute(i, script.get(i));
            }
            for (Await a : plan.awaits().get(me)) {
                observe(a);
            }
        }
        for (Context c : contexts) {
            c.quiet();
        }
        shmem.barrierAll();
        checkEverythingArrived();
        checkPairs();
        shmem.barrierAll();
        memory.close();
        return checks;
    }

    private long at(int word) {
        return program.index(round, word);
    }

    private void check(boolean ok, Supplier<String> what) {
        checks++;
        if (!ok) {
            throw new AssertionError("PE " + me + ", round " + round + ": " + what.get());
        }
    }

    private String op(int pe, int index) {
        return "PE " + pe + "'s [" + index + "] " + program.script(pe).get(index).render();
    }

    private void execute(int index, Op op) {
        long k = round;
        switch (op) {
            case Op.Put p -> {
                Context c = contexts[p.ctx()];
                switch (p.form()) {
                    case P -> c.p(memory, at(p.slot()), k, p.pe());
                    case PUT -> c.put(memory, at(p.slot()), filled(p.words()), 0, p.words(), p.pe());
                    case PUT_NBI -> c.putNbi(memory, at(p.slot()), filled(p.words()), 0, p.words(), p.pe());
                }
            }
            case Amo a -> amo(index, a);
            case Op.PutSignal ps -> {
                Context c = contexts[ps.ctx()];
                SignalOp sigOp = ps.add() ? SignalOp.ADD : SignalOp.SET;
                if (ps.nbi()) {
                    c.putSignalNbi(memory, at(ps.slot()), filled(ps.dataWords()), 0, ps.dataWords(), memory, at(ps.flagWord()), k,
                            sigOp, ps.pe());
                } else {
                    c.putSignal(memory, at(ps.slot()), filled(ps.dataWords()), 0, ps.dataWords(), memory, at(ps.flagWord()), k,
                            sigOp, ps.pe());
                }
            }
            case Op.Signal s -> {
                if (s.add()) {
                    contexts[s.ctx()].signalAdd(memory, at(s.slot()), k, s.pe());
                } else {
                    contexts[s.ctx()].signalSet(memory, at(s.slot()), k, s.pe());
                }
            }
            case Op.Store st -> memory.set(at(st.slot()), k);
            case Op.Get g -> get(index, g);
            case Op.AmoFetch f -> {
                Write w = (Write) program.script(me).get(f.of());
                long v = contexts[f.ctx()].atomicFetch(memory, at(w.slot()), w.pe());
                Reason why = plan.reads().get(me).get(index);
                if (why != null) {
                    check(v == k, () -> op(me, index) + " read " + v + ", not " + k + ", written by " + op(me, f.of())
                            + "; due by " + why);
                }
            }
            case Op.CrossGet x -> {
                Write w = (Write) program.script(x.writer()).get(x.of());
                memory.set(at(x.slot()), contexts[x.ctx()].g(memory, at(w.slot()), w.pe()));
            }
            case Op.Fence f -> contexts[f.ctx()].fence();
            case Op.Quiet q -> {
                contexts[q.ctx()].quiet();
                complete(q.ctx(), null);
            }
            case Op.PeQuiet q -> {
                contexts[q.ctx()].peQuiet(q.pes().stream().mapToInt(Integer::intValue).toArray());
                complete(q.ctx(), q.pes());
            }
        }
    }

    private long[] filled(int words) {
        long[] a = new long[words];
        Arrays.fill(a, round);
        return a;
    }

    private void amo(int index, Amo a) {
        Context c = contexts[a.ctx()];
        long k = round, at = at(a.slot());
        int pe = a.pe();
        switch (a.fetch()) {
            case NONE -> {
                switch (a.kind()) {
                    case ADD -> c.atomicAdd(memory, at, k, pe);
                    case SET -> c.atomicSet(memory, at, k, pe);
                    case OR -> c.atomicOr(memory, at, k, pe);
                    case XOR -> c.atomicXor(memory, at, k, pe);
                    case COMPARE_SWAP -> throw new IllegalArgumentException("a compare-swap always fetches");
                }
            }
            case BLOCKING -> {
                long old = switch (a.kind()) {
                    case ADD -> c.atomicFetchAdd(memory, at, k, pe);
                    case SET -> c.atomicSwap(memory, at, k, pe);
                    case OR -> c.atomicFetchOr(memory, at, k, pe);
                    case XOR -> c.atomicFetchXor(memory, at, k, pe);
                    case COMPARE_SWAP -> c.atomicCompareSwap(memory, at, 0, k, pe);
                };
                check(old == 0, () -> op(me, index) + " returned " + old + ", not the word's old value 0 (spec 9.7)");
            }
            case NBI -> {
                long[] fetched = new long[1];
                switch (a.kind()) {
                    case ADD -> c.atomicFetchAddNbi(fetched, 0, memory, at, k, pe);
                    case SET -> c.atomicSwapNbi(fetched, 0, memory, at, k, pe);
                    case OR -> c.atomicFetchOrNbi(fetched, 0, memory, at, k, pe);
                    case XOR -> c.atomicFetchXorNbi(fetched, 0, memory, at, k, pe);
                    case COMPARE_SWAP -> c.atomicCompareSwapNbi(fetched, 0, memory, at, 0, k, pe);
                }
                // pe_quiet does not deliver fetched values (9.12.3 lists nbi gets, not nbi AMOs)
                pending.add(new Pending(a.ctx(), pe, false, fetched, 0,
                        () -> op(me, index) + " fetched " + fetched[0] + " by quiet, not the word's old value 0 (spec 9.12.2)"));
            }
        }
    }

    private void get(int index, Op.Get g) {
        Write w = (Write) program.script(me).get(g.of());
        int n = w.dataWords();
        long[] got = new long[n];
        Context c = contexts[g.ctx()];
        Reason why = plan.reads().get(me).get(index);
        Supplier<String> what = () -> op(me, index) + " read " + Arrays.toString(got) + ", not " + round + ", written by "
                + op(me, g.of()) + "; due by " + why;
        if (g.nbi()) {
            c.getNbi(got, 0, memory, at(w.slot()), n, w.pe());
            if (why != null) {
                pending.add(new Pending(g.ctx(), w.pe(), true, got, round, what));
            }
        } else {
            c.get(got, 0, memory, at(w.slot()), n, w.pe());
            if (why != null) {
                check(Arrays.stream(got).allMatch(v -> v == round), what);
            }
        }
    }

    /** Checks the nbi results a quiet of {@code ctx} (a pe_quiet of {@code pes}, if not null) delivered. */
    private void complete(int ctx, List<Integer> pes) {
        for (var it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (p.ctx() == ctx && (pes == null || p.byPeQuiet() && pes.contains(p.target()))) {
                it.remove();
                check(Arrays.stream(p.result()).allMatch(v -> v == p.expected()), p.what());
            }
        }
    }

    /** Waits for a flag, then checks every write the oracle says it guarantees. */
    private void observe(Await a) {
        long flagAt = at(a.flag().flagWord());
        // Unbounded: a PE that fails ends the others' waits at once, and a flag that never comes
        // is the job's time-out, which names the program (the bounded wait does not see a failed job).
        shmem.waitUntil(memory, flagAt, Cmp.NE, 0);
        long flag = memory.get(flagAt);
        check(flag == round, () -> "the flag " + op(a.writer(), a.index()) + " holds " + flag + ", not " + round);
        for (Expect e : a.expects()) {
            Write w = e.write();
            for (int x = 0; x < e.words(); x++) {
                int word = w.slot() + x;
                long v = w.pe() == me ? memory.get(at(word)) : shmem.g(memory, at(word), w.pe());
                check(v == round, () -> "after the flag " + op(a.writer(), a.index()) + " came, word w" + word + " of "
                        + op(e.writer(), e.index()) + " at PE " + w.pe() + " holds " + v + ", not " + round + "; due by " + e.reason());
            }
        }
    }

    /** Each store-buffering pair led by this PE: in every round, at least one read saw the other's write. */
    private void checkPairs() {
        for (Oracle.Pair p : plan.pairs()) {
            if (p.a() != me) {
                continue;
            }
            int slotA = ((Op.CrossGet) program.script(p.a()).get(p.ja())).slot();
            int slotB = ((Op.CrossGet) program.script(p.b()).get(p.jb())).slot();
            for (round = 1; round <= program.rounds(); round++) {
                long ra = memory.get(at(slotA)), rb = shmem.g(memory, at(slotB), p.b());
                check((ra == 0 || ra == round) && (rb == 0 || rb == round) && ra + rb > 0, () -> op(p.a(), p.ja()) + " read " + ra + " and "
                        + op(p.b(), p.jb()) + " read " + rb + ": at least one must be " + round + " (each " + round + " or 0); due by "
                        + p.reason());
            }
        }
    }

    /** After quiet on every context and a barrier, each write to this PE has arrived, once. */
    private void checkEverythingArrived() {
        for (int writer = 0; writer < program.placement().npes(); writer++) {
            List<Op> s = program.script(writer);
            for (int i = 0; i < s.size(); i++) {
                if (s.get(i) instanceof Write w && w.pe() == me) {
                    for (round = 1; round <= program.rounds(); round++) {
                        for (int x = 0; x < w.words(); x++) {
                            long v = memory.get(at(w.slot() + x));
                            int from = writer, index = i, word = w.slot() + x;
                            check(v == round, () -> "after quiet on every context and barrier_all, word w" + word + " of "
                                    + op(from, index) + " holds " + v + ", not " + round + " (spec: quiet 9.12.2, then barrier_all)");
                        }
                    }
                }
            }
        }
    }
}
