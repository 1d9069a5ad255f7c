package org.shmem4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.inprocess.InProcessJob;

/**
 * Runs every benchmark program at 2 PEs in-process (threads) with PEER_SCALE=1 PEER_REPS=1 and
 * checks that PE 0 prints exactly the measurement lines the C peer prints (same names, keys and
 * number formats, so peer/compare.py pairs them) and that the job ends with status 0.
 */
class BenchSmokeTest {
    private static final Knobs QUICK = Knobs.of(Map.of("PEER_SCALE", "1", "PEER_REPS", "1", "BENCH_WARMUP_SCALE", "1", "BENCH_JIT_WARMUP", "0",
            "BENCH_WARMUP_MS", "0"));
    private static final String US = "us=\\d+\\.\\d{3}";
    private static final String MOPS = "Mops=\\d+\\.\\d{3}";

    private static List<String> expected(String program) {
        List<String> p = new ArrayList<>();
        switch (program) {
            case "put_lat" -> {
                for (long b : PutLat.SIZES) {
                    p.add("put_lat bytes=" + b + " " + US);
                }
                p.add("p_pingpong bytes=8 " + US);
            }
            case "get_lat" -> {
                for (long b : GetLat.SIZES) {
                    p.add("get_lat bytes=" + b + " " + US);
                }
                p.add("g_lat bytes=8 " + US);
            }
            case "put_bw" -> {
                for (String name : List.of("put_bw", "get_bw")) {
                    for (long b = 4096; b <= 64L << 20; b *= 4) {
                        p.add(name + " bytes=" + b + " MBps=\\d+");
                    }
                }
            }
            case "msgrate" -> {
                p.add("msgrate op=putmem_nbi mode=uni Mmsgs=\\d+\\.\\d{3}");
                p.add("msgrate op=putmem_nbi mode=bi Mmsgs=\\d+\\.\\d{3}");
                p.add("msgrate op=long_p mode=uni Mmsgs=\\d+\\.\\d{3}");
            }
            case "amo" -> {
                for (String op : Amo.LAT_OPS) {
                    p.add("amo_lat op=" + op + " " + US);
                }
                p.add("amo_rate op=add mode=uni " + MOPS);
                p.add("amo_rate op=add mode=contended " + MOPS);
                p.add("amo_rate op=fetch_add mode=contended " + MOPS);
            }
            case "gups" -> {
                p.add("gups op=xor pes=2 Mups=\\d+\\.\\d{3}");
                p.add("gups op=add pes=2 Mups=\\d+\\.\\d{3}");
                p.add("gups op=xor mode=session pes=2 Mups=\\d+\\.\\d{3}");
            }
            case "histo" -> {
                for (String op : List.of("add", "p")) {
                    for (String mode : List.of("plain", "session")) {
                        p.add("histo op=" + op + " mode=" + mode + " pes=2 Mups=\\d+\\.\\d{3}");
                    }
                }
            }
            case "ig" -> {
                p.add("ig op=get mode=plain pes=2 Mgets=\\d+\\.\\d{3}");
                p.add("ig op=get_nbi mode=plain pes=2 Mgets=\\d+\\.\\d{3}");
                p.add("ig op=get_nbi mode=session pes=2 Mgets=\\d+\\.\\d{3}");
            }
            case "batch_lat" -> {
                p.add("batch_lat op=add mode=plain pes=2 " + US);
                p.add("batch_lat op=add mode=session pes=2 " + US);
            }
            case "barrier" -> {
                p.add("barrier_all pes=2 " + US);
                p.add("sync_all pes=2 " + US);
            }
            case "team_create" -> {
                p.add("team_create op=dup teams=64 pes=2 " + US);
                p.add("team_create op=halving teams=64 pes=2 " + US);
            }
            case "msgrate_threads" -> {
                for (String ctx : List.of("private", "shared")) {
                    for (int t : MsgRateThreads.THREADS) {
                        p.add("msgrate op=putmem_nbi threads=" + t + " ctx=" + ctx + " Mmsgs=\\d+\\.\\d{3}");
                    }
                }
                for (String ctx : List.of("private", "shared")) {
                    for (int t : MsgRateThreads.THREADS) {
                        p.add("bw op=putmem_nbi bytes=" + MsgRateThreads.LARGE + " threads=" + t + " ctx=" + ctx + " MBps=\\d+");
                    }
                }
            }
            case "coll" -> {
                for (String name : Coll.NAMES) {
                    for (long n : Coll.SIZES) {
                        p.add(name + " elems=" + n + " pes=2 " + US);
                    }
                }
            }
            case "reduce_algo", "reduce_algo_hosts" -> {
                String mode = program.equals("reduce_algo") ? "" : " mode=host_leaders";
                for (long n : ReduceAlgo.sizes()) {
                    p.add("reduce op=float_sum algo=" + Pattern.quote(ReduceAlgo.algorithm()) + mode + " elems=" + n + " pes=2 " + US);
                }
            }
            default -> throw new IllegalArgumentException(program);
        }
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"put_lat", "get_lat", "put_bw", "msgrate", "amo", "barrier", "coll", "gups", "histo", "ig",
            "batch_lat", "team_create", "msgrate_threads", "reduce_algo", "reduce_algo_hosts"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void printsThePeersMeasurementLines(String program) {
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        InProcessJob.Result result;
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setOut(out);
            result = InProcessJob.run(2, System.getenv(), Duration.ofSeconds(100), () -> {
                int status = Main.run(program, QUICK);
                if (status != 0) {
                    throw new IllegalStateException(program + " returned status " + status);
                }
            });
        } finally {
            System.setOut(saved);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        saved.print(text);
        result.orThrow();
        List<String> lines = text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        List<String> want = expected(program);
        assertEquals(want.size(), lines.size(), "lines printed by " + program + ":\n" + text);
        for (int i = 0; i < want.size(); i++) {
            assertTrue(Pattern.matches(want.get(i), lines.get(i)),
                    "line " + i + " of " + program + " is '" + lines.get(i) + "', expected /" + want.get(i) + "/");
        }
    }

    @Test
    void knobsFollowTheCDefaultsAndScaling() {
        Knobs d = Knobs.of(Map.of());
        assertEquals(7, d.reps());
        assertEquals(100, d.scalePercent());
        assertEquals(20000, d.scaled(20000));
        Knobs k = Knobs.of(Map.of("PEER_REPS", "100", "PEER_SCALE", "5", "BENCH_WARMUP_SCALE", "3"));
        assertEquals(Knobs.MAX_REPS, k.reps());
        assertEquals(1000, k.scaled(20000));
        assertEquals(1, k.scaled(10));
        assertEquals(30, k.warmup(10));
        assertEquals(1, Knobs.of(Map.of("PEER_REPS", "0")).reps());
        assertEquals(Knobs.JIT_OPS, d.warmup(10, 8));
        assertEquals(1, Knobs.of(Map.of()).warmupScale());
        assertEquals(200, d.warmupMillis());
        assertEquals(8, d.warmup(2, 64L << 20)); // 512 MiB at most
        assertEquals(8192, d.warmup(2, 64L << 10)); // past the C2 invocation threshold
        assertEquals(10, Knobs.of(Map.of("BENCH_JIT_WARMUP", "0")).warmup(10, 8));
    }

    @Test
    void reduceAlgoSizesArePowersOfFourUpToOneMebi() {
        long[] sizes = ReduceAlgo.sizes();
        assertEquals(11, sizes.length);
        assertEquals(1, sizes[0]);
        assertEquals(1L << 20, sizes[10]);
    }
}
