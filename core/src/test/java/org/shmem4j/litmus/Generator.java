package org.shmem4j.litmus;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.shmem4j.litmus.Op.Amo;
import org.shmem4j.litmus.Op.Put;
import org.shmem4j.litmus.Op.Write;

/**
 * Makes the program of a seed for a placement. Each PE's script is a few segments shaped like the
 * message-passing litmus tests: writes mostly to one target, an ordering routine (none, fence,
 * quiet or pe_quiet, on the segment's context or the other), maybe reads of its own writes, then a
 * flag its target waits for (after a fence usually the data's target, after quiet any PE). Every
 * choice is random, contexts and targets are sometimes mixed on purpose, so many programs
 * guarantee little; the oracle finds out what they do guarantee.
 */
final class Generator {
    private final SplittableRandom random;
    private final Placement placement;
    private int words;

    private Generator(long seed, Placement placement) {
        this.random = new SplittableRandom(seed);
        this.placement = placement;
    }

    /** The program of {@code seed} for {@code placement}: the same on every PE and in every replay. */
    static Program generate(long seed, Placement placement, int rounds) {
        Generator g = new Generator(seed, placement);
        List<List<Op>> scripts = new ArrayList<>();
        for (int pe = 0; pe < placement.npes(); pe++) {
            scripts.add(g.script(pe));
        }
        if (placement.npes() > 1 && g.chance(50)) {
            g.storeBuffering(scripts);
        }
        return new Program(seed, placement, rounds, g.words, scripts);
    }

    private boolean chance(int percent) {
        return random.nextInt(100) < percent;
    }

    private int anyPe() {
        return random.nextInt(placement.npes());
    }

    private int slot(int count) {
        int first = words;
        words += count;
        return first;
    }

    private List<Op> script(int me) {
        List<Op> s = new ArrayList<>();
        int segments = 1 + random.nextInt(3);
        for (int seg = 0; seg < segments; seg++) {
            int ctx = random.nextInt(2);
            int target = anyPe();
            for (int d = 1 + random.nextInt(3); d > 0; d--) {
                s.add(write(me, chance(80) ? ctx : 1 - ctx, chance(80) ? target : anyPe()));
            }
            maybeRead(s);
            int orderingCtx = chance(80) ? ctx : 1 - ctx;
            int kind = random.nextInt(100);
            if (kind < 40) {
                s.add(new Op.Fence(orderingCtx));
            } else if (kind < 70) {
                s.add(new Op.Quiet(orderingCtx));
            } else if (kind < 88) {
                TreeSet<Integer> pes = new TreeSet<>();
                for (int i = 1 + random.nextInt(2); i > 0; i--) {
                    pes.add(chance(60) ? target : anyPe());
                }
                s.add(new Op.PeQuiet(orderingCtx, List.copyOf(pes)));
            } // else no ordering at all
            maybeRead(s);
            int observer = kind < 40 && chance(80) ? target : anyPe();
            s.add(flag(chance(80) ? ctx : 1 - ctx, observer));
        }
        completeNbiResults(s);
        return s;
    }

    /**
     * Appends a store-buffering pair: two PEs each write a word, complete it (usually), then read
     * the other's word. After quiet (or a pe_quiet of the target) on both sides, at least one of
     * them must see the other's write; after a fence alone nothing is guaranteed.
     */
    private void storeBuffering(List<List<Op>> scripts) {
        int a = anyPe(), b = (a + 1 + random.nextInt(placement.npes() - 1)) % placement.npes();
        int[] pes = {a, b};
        int[] writes = new int[2];
        int[] ctxs = new int[2];
        for (int side = 0; side < 2; side++) {
            List<Op> s = scripts.get(pes[side]);
            writes[side] = s.size();
            ctxs[side] = random.nextInt(2);
            s.add(new Put(ctxs[side], anyPe(), slot(1), 1, chance(50) ? Put.Form.P : Put.Form.PUT, false));
        }
        for (int side = 0; side < 2; side++) {
            List<Op> s = scripts.get(pes[side]);
            int ctx = ctxs[side], target = ((Put) s.get(writes[side])).pe();
            int kind = random.nextInt(100);
            s.add(kind < 50 ? new Op.Quiet(ctx) : kind < 80 ? new Op.PeQuiet(ctx, List.of(target)) : new Op.Fence(ctx));
            s.add(new Op.CrossGet(random.nextInt(2), pes[1 - side], writes[1 - side], slot(1)));
        }
    }

    /** A write of any kind (a store only into the writer's own memory). */
    private Write write(int me, int ctx, int pe) {
        int kind = random.nextInt(100);
        if (kind < 18) {
            return new Put(ctx, pe, slot(1), 1, Put.Form.P, false);
        } else if (kind < 32) {
            int n = 1 + random.nextInt(4);
            return new Put(ctx, pe, slot(n), n, Put.Form.PUT, false);
        } else if (kind < 45) {
            int n = 1 + random.nextInt(4);
            return new Put(ctx, pe, slot(n), n, Put.Form.PUT_NBI, false);
        } else if (kind < 70) {
            Amo.Kind k = Amo.Kind.values()[random.nextInt(Amo.Kind.values().length)];
            Amo.Fetch f = k == Amo.Kind.COMPARE_SWAP ? (chance(50) ? Amo.Fetch.BLOCKING : Amo.Fetch.NBI)
                    : Amo.Fetch.values()[random.nextInt(Amo.Fetch.values().length)];
            return new Amo(ctx, pe, slot(1), k, f, false);
        } else if (kind < 85) {
            int n = 1 + random.nextInt(3);
            return new Op.PutSignal(ctx, pe, slot(n + 1), n, chance(50), chance(40), false);
        } else if (kind < 95) {
            return new Op.Signal(ctx, pe, slot(1), chance(50), false);
        }
        return new Op.Store(me, slot(1));
    }

    /** A flag: a write of one word (or a put-with-signal's signal) its target waits for. */
    private Write flag(int ctx, int observer) {
        int kind = random.nextInt(100);
        if (kind < 35) {
            return new Put(ctx, observer, slot(1), 1, Put.Form.P, true);
        } else if (kind < 45) {
            return new Put(ctx, observer, slot(1), 1, chance(50) ? Put.Form.PUT : Put.Form.PUT_NBI, true);
        } else if (kind < 60) {
            Amo.Kind k = chance(50) ? Amo.Kind.ADD : Amo.Kind.SET;
            return new Amo(ctx, observer, slot(1), k, chance(70) ? Amo.Fetch.NONE : Amo.Fetch.BLOCKING, true);
        } else if (kind < 75) {
            return new Op.Signal(ctx, observer, slot(1), chance(50), true);
        }
        int n = 1 + random.nextInt(3);
        return new Op.PutSignal(ctx, observer, slot(n + 1), n, chance(50), chance(40), true);
    }

    /** Sometimes reads back one of this PE's earlier writes: an AMO's word atomically, other data with a get. */
    private void maybeRead(List<Op> s) {
        if (!chance(30)) {
            return;
        }
        int of = random.nextInt(s.size());
        int ctx = random.nextInt(2);
        switch (s.get(of)) {
            case Amo a -> s.add(new Op.AmoFetch(ctx, of));
            case Put p -> s.add(new Op.Get(ctx, of, chance(40)));
            case Op.PutSignal p -> s.add(new Op.Get(ctx, of, chance(40)));
            case Op.Store st -> s.add(new Op.Get(ctx, of, false));
            default -> {
            } // a signal word is read only by its owner; an ordering routine or a read has nothing to read
        }
    }

    /**
     * Results of nbi gets and nbi fetching AMOs arrive at a quiet of their context: ends the script
     * with one where a context has such a result and no quiet after it.
     */
    private static void completeNbiResults(List<Op> s) {
        for (int ctx = 0; ctx < 2; ctx++) {
            boolean pending = false;
            for (Op op : s) {
                boolean nbiResult = switch (op) {
                    case Op.Get g -> g.nbi() && g.ctx() == ctx;
                    case Amo a -> a.fetch() == Amo.Fetch.NBI && a.ctx() == ctx;
                    default -> false;
                };
                pending = nbiResult || pending && !(op instanceof Op.Quiet q && q.ctx() == ctx);
            }
            if (pending) {
                s.add(new Op.Quiet(ctx));
            }
        }
    }
}
