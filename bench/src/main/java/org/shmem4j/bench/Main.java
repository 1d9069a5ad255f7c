package org.shmem4j.bench;

import java.util.List;

/**
 * Runs one benchmark program, or all of them in turn, on this PE:
 * {@code java ... org.shmem4j.bench.Main put_lat|get_lat|put_bw|msgrate|amo|barrier|coll|gups|histo|ig|team_create|msgrate_threads|reduce_algo|reduce_algo_hosts|scale|batch_lat|all}
 * (started on every PE by {@code bin/oshrun}; see bench/run.sh). Knobs come from the environment
 * ({@link Knobs}). The exit status is non-zero when a program fails.
 */
public final class Main {
    /** The programs of {@code all}: the C peer's, in the order of its run.sh, then the Java-only ones. */
    public static final List<String> PROGRAMS = List.of("put_lat", "get_lat", "put_bw", "msgrate", "amo", "barrier", "coll", "gups",
            "histo", "ig", "team_create", "msgrate_threads");

    /**
     * Programs with no C peer, not part of {@code all}: the figure-4 reduce experiment, over the
     * world team and in two levels over host teams (bench/run.sh runs them once per reduce algorithm),
     * the scale table's job, and the first-operation-of-a-batch latency (bench/batch-sweep.sh).
     */
    public static final List<String> EXTRA = List.of("reduce_algo", "reduce_algo_hosts", "scale", "batch_lat");

    private Main() {
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: org.shmem4j.bench.Main " + String.join("|", PROGRAMS) + "|"
                    + String.join("|", EXTRA) + "|all");
            System.exit(2);
        }
        System.exit(run(args[0], Knobs.fromEnvironment()));
    }

    /** Runs {@code program} ("all" for every one) on this PE; returns the exit status. */
    public static int run(String program, Knobs knobs) {
        if (program.equals("all")) {
            for (String p : PROGRAMS) {
                int status = run(p, knobs);
                if (status != 0) {
                    return status;
                }
            }
            return 0;
        }
        return switch (program) {
            case "put_lat" -> PutLat.run(knobs);
            case "get_lat" -> GetLat.run(knobs);
            case "put_bw" -> PutBw.run(knobs);
            case "msgrate" -> MsgRate.run(knobs);
            case "amo" -> Amo.run(knobs);
            case "barrier" -> Barrier.run(knobs);
            case "coll" -> Coll.run(knobs);
            case "gups" -> Gups.run(knobs);
            case "histo" -> Histo.run(knobs);
            case "ig" -> IndexGather.run(knobs);
            case "batch_lat" -> BatchLat.run(knobs);
            case "team_create" -> TeamCreate.run(knobs);
            case "scale" -> Scale.run(knobs);
            case "msgrate_threads" -> MsgRateThreads.run(knobs);
            case "reduce_algo" -> ReduceAlgo.run(knobs, "world");
            case "reduce_algo_hosts" -> ReduceAlgo.run(knobs, "host_leaders");
            default -> {
                System.err.println("unknown benchmark '" + program + "'; expected one of "
                        + String.join(", ", PROGRAMS) + ", " + String.join(", ", EXTRA) + ", all");
                yield 2;
            }
        };
    }
}
