package org.shmem4j.litmus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.shmem4j.litmus.Op.Amo;
import org.shmem4j.litmus.Op.Fence;
import org.shmem4j.litmus.Op.PeQuiet;
import org.shmem4j.litmus.Op.Put;
import org.shmem4j.litmus.Op.PutSignal;
import org.shmem4j.litmus.Op.Quiet;
import org.shmem4j.litmus.Op.Store;
import org.shmem4j.litmus.Op.Write;

/**
 * What a litmus program is guaranteed to show, and why: Table 14 of the spec (fence orders the
 * puts, AMOs, stores and puts-with-signal of one context to one PE; quiet completes all of a
 * context's; pe_quiet those to the listed PEs; blocking gets are ordered by neither, only quiet
 * makes earlier writes visible to them), put-with-signal's signal never before its data (9.8.3),
 * store buffering after completion (two PEs that each complete a write before reading the other's
 * cannot both miss), and the promises shmem4j adds, labelled as such (docs/memory-model.md). A write nothing orders
 * is never checked until the final quiet and barrier.
 */
final class Oracle {
    private Oracle() {
    }

    /** Whose word a check rests on: the specification's, or shmem4j's written promise beyond it. */
    enum Basis { SPEC, SHMEM4J }

    record Reason(Basis basis, String text) {
        static Reason spec(String text) {
            return new Reason(Basis.SPEC, text);
        }

        static Reason promise(String text) {
            return new Reason(Basis.SHMEM4J, text);
        }

        @Override
        public String toString() {
            return (basis == Basis.SPEC ? "spec: " : "shmem4j's promise (not the spec's): ") + text;
        }
    }

    /** After seeing flag {@code [index]} of {@code writer}, its target checks these earlier writes. */
    record Await(int writer, int index, Write flag, List<Expect> expects) {}

    /** {@code words} words from the write's first word, read at its target, must hold {@code k}. */
    record Expect(int writer, int index, Write write, int words, Reason reason) {}

    /**
     * The checks of a program: the flags each PE waits for (in order) with what each guarantees,
     * and for each PE's reads (by script index) why they must see the write they read, if they must.
     */
    record Plan(Program program, List<List<Await>> awaits, List<Map<Integer, Reason>> reads, List<Pair> pairs) {}

    /**
     * Store buffering: PE {@code a}'s read {@code [ja]} and PE {@code b}'s read {@code [jb]} each
     * read the other's write, which each completed before its read: not both may miss.
     */
    record Pair(int a, int ja, int b, int jb, Reason reason) {}

    static Plan plan(Program program) {
        int n = program.placement().npes();
        List<List<Await>> awaits = new ArrayList<>();
        List<Map<Integer, Reason>> reads = new ArrayList<>();
        for (int pe = 0; pe < n; pe++) {
            awaits.add(new ArrayList<>());
            reads.add(new HashMap<>());
        }
        for (int writer = 0; writer < n; writer++) {
            List<Op> s = program.script(writer);
            Map<Integer, Reason> mine = reads.get(writer);
            for (int j = 0; j < s.size(); j++) {
                int at = j;
                switch (s.get(j)) {
                    case Write f when f.awaited() -> awaits.get(f.pe()).add(new Await(writer, j, f, expects(program, writer, j)));
                    case Op.Get g -> completed(s, g.of(), j).ifPresent(r -> mine.put(at, r));
                    case Op.AmoFetch a -> completed(s, a.of(), at).or(() -> fenced(s, a.of(), at, a.ctx()))
                            .ifPresent(r -> mine.put(at, r));
                    default -> {
                    }
                }
            }
        }
        return new Plan(program, awaits.stream().map(List::copyOf).toList(), reads.stream().map(Map::copyOf).toList(),
                pairs(program));
    }

    private static List<Pair> pairs(Program program) {
        List<Pair> pairs = new ArrayList<>();
        for (int a = 0; a < program.placement().npes(); a++) {
            List<Op> sa = program.script(a);
            for (int ja = 0; ja < sa.size(); ja++) {
                if (!(sa.get(ja) instanceof Op.CrossGet x) || x.writer() <= a) {
                    continue;
                }
                List<Op> sb = program.script(x.writer());
                for (int jb = 0; jb < sb.size(); jb++) {
                    if (sb.get(jb) instanceof Op.CrossGet y && y.writer() == a && x.of() < jb && y.of() < ja) {
                        Optional<Reason> ra = completed(sa, y.of(), ja), rb = completed(sb, x.of(), jb);
                        if (ra.isPresent() && rb.isPresent()) {
                            pairs.add(new Pair(a, ja, x.writer(), jb, Reason.spec("each PE's write is complete and visible to all"
                                    + " before its read (PE " + a + ": " + ra.get().text() + "; PE " + x.writer() + ": "
                                    + rb.get().text() + "), so at least one read sees the other's write")));
                        }
                    }
                }
            }
        }
        return List.copyOf(pairs);
    }

    /** What the flag {@code s[j]} guarantees its target when it has seen it. */
    private static List<Expect> expects(Program program, int writer, int j) {
        List<Op> s = program.script(writer);
        Write flag = (Write) s.get(j);
        List<Expect> expects = new ArrayList<>();
        for (int i = 0; i < j; i++) {
            if (s.get(i) instanceof Write w) {
                int earlier = i;
                completed(s, i, j)
                        .or(() -> w.pe() == flag.pe() ? fenced(s, earlier, j, flag.ctx()) : Optional.empty())
                        .or(() -> released(program, writer, earlier, j))
                        .ifPresent(r -> expects.add(new Expect(writer, earlier, w, w.words(), r)));
            }
        }
        if (flag instanceof PutSignal) {
            expects.add(new Expect(writer, j, flag, flag.dataWords(),
                    Reason.spec("[" + j + "]'s signal is never visible before its data (9.8.3)")));
        }
        return expects;
    }

    /** Does an ordering routine on context {@code ctx} act on write {@code w}? (A store: on any context.) */
    private static boolean covers(Write w, int ctx) {
        return w.ctx() == Op.ANY_CONTEXT || w.ctx() == ctx;
    }

    /** Why write {@code s[i]} is complete, and visible to every PE, by the time {@code s[j]} is issued. */
    static Optional<Reason> completed(List<Op> s, int i, int j) {
        Write w = (Write) s.get(i);
        if (w instanceof Amo a && a.fetch() == Amo.Fetch.BLOCKING) {
            return Optional.of(Reason.promise("[" + i + "] is a blocking fetching AMO, performed at PE " + w.pe()
                    + " when it returns (S1)"));
        }
        for (int x = i + 1; x < j; x++) {
            switch (s.get(x)) {
                case Quiet q when covers(w, q.ctx()) -> {
                    return Optional.of(Reason.spec("quiet at [" + x + "] completes [" + i + "] (9.12.2)"));
                }
                case PeQuiet q when covers(w, q.ctx()) && q.pes().contains(w.pe()) -> {
                    return Optional.of(Reason.spec("pe_quiet at [" + x + "] completes [" + i + "] to PE " + w.pe() + " (9.12.3)"));
                }
                default -> {
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Why write {@code s[i]} is delivered before {@code s[j]}, an operation on context {@code ctx}
     * to the same PE: a fence of that context between them (a get is never such an operation).
     */
    private static Optional<Reason> fenced(List<Op> s, int i, int j, int ctx) {
        Write w = (Write) s.get(i);
        for (int x = i + 1; x < j; x++) {
            if (s.get(x) instanceof Fence f && covers(w, f.ctx()) && f.ctx() == ctx) {
                return Optional.of(Reason.spec("fence at [" + x + "] orders [" + i + "] before [" + j + "], both to PE "
                        + w.pe() + " on ctx" + ctx + " (9.12.1)"));
            }
        }
        return Optional.empty();
    }

    /**
     * Why a blocking put, {@code p} or store {@code s[i]} to a mapped PE is visible to whoever sees
     * {@code s[j]}, a {@code p} to a mapped PE: a mapped {@code p} is a release store (S2).
     */
    private static Optional<Reason> released(Program program, int writer, int i, int j) {
        List<Op> s = program.script(writer);
        Placement pl = program.placement();
        boolean mappedPut = switch (s.get(i)) {
            case Put p -> p.form() != Put.Form.PUT_NBI && pl.mapped(writer, p.pe());
            case Store st -> true;
            default -> false;
        };
        if (mappedPut && s.get(j) instanceof Put f && f.form() == Put.Form.P && pl.mapped(writer, f.pe())) {
            return Optional.of(Reason.promise("[" + j + "] is a p to a mapped PE, a release store after [" + i
                    + "]'s stores to mapped memory (S2)"));
        }
        return Optional.empty();
    }
}
