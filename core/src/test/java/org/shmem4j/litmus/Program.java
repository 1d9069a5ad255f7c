package org.shmem4j.litmus;

import java.util.List;

/**
 * A generated litmus program: every PE runs its script once per round {@code k = 1..rounds}, then
 * waits for the flags addressed to it and checks what the oracle says they guarantee. Round
 * {@code k} writes the block of {@code words} words at index {@code (k-1)*words} of one symmetric
 * array, so no word is ever written twice.
 */
record Program(long seed, Placement placement, int rounds, int words, List<List<Op>> scripts) {
    Program {
        scripts = scripts.stream().map(List::copyOf).toList();
    }

    List<Op> script(int pe) {
        return scripts.get(pe);
    }

    /** Index of {@code word} of round {@code k} in the program's symmetric array. */
    long index(int k, int word) {
        return (long) (k - 1) * words + word;
    }

    /** The listing printed with a failure: each PE's script with its node and every target's route. */
    String render() {
        StringBuilder b = new StringBuilder();
        b.append("program of seed ").append(seed).append(" (").append(placement).append(", ").append(rounds)
                .append(" rounds; each round k writes k into words of its own):\n");
        for (int pe = 0; pe < placement.npes(); pe++) {
            b.append("  PE ").append(pe).append(" (node ").append(placement.node(pe)).append("), every round:\n");
            List<Op> script = script(pe);
            for (int i = 0; i < script.size(); i++) {
                Op op = script.get(i);
                b.append(String.format("    [%d] %s", i, op.render()));
                if (op instanceof Op.Write w && !(op instanceof Op.Store)) {
                    b.append(placement.mapped(pe, w.pe()) ? "   (PE " + w.pe() + " mapped)" : "   (PE " + w.pe() + " remote)");
                }
                b.append('\n');
            }
        }
        return b.toString();
    }
}
