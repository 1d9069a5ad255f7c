package org.shmem4j.launcher;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.shmem4j.bootstrap.launcher.LaunchEnv;
import org.shmem4j.bootstrap.launcher.LauncherBootstrap;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;

/**
 * A PE main for the launcher tests, using the bootstrap directly (no runtime). args[0] selects
 * the behaviour, args[1] (where used) the rank that misbehaves; the others sleep until ended.
 */
public final class TestPe {
    /** SHMEM_BOOTSTRAP_TIMEOUT_S, as the runtime hands it to the bootstrap. */
    private static final int PATIENCE_S = Parameters.from(System.getenv(), List.of(Params.BOOTSTRAP_TIMEOUT_S))
            .get(Params.BOOTSTRAP_TIMEOUT_S);

    private TestPe() {}

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "hello";
        int target = args.length > 1 ? Integer.parseInt(args[1]) : -1;
        if (mode.equals("noshmem")) {
            System.out.println("plain program, rank " + System.getenv(LaunchEnv.RANK));
            return;
        }
        if (mode.equals("noconnect") && Integer.parseInt(System.getenv(LaunchEnv.RANK)) == target) {
            Thread.sleep(Long.MAX_VALUE); // never reaches the rendezvous
        }
        var b = LauncherBootstrap.processInstance(System.getenv(), PATIENCE_S);
        String gathered = gather(b);
        String extra = mode.equals("secret") ? " secret=" + System.getenv(LaunchEnv.JOB_SECRET) : "";
        if (mode.equals("shmfile")) {
            String dir = System.getenv().getOrDefault(LaunchEnv.SHM_DIR, LaunchEnv.DEFAULT_SHM_DIR);
            Path f = Path.of(dir, LaunchEnv.shmFilePrefix(b.jobId()) + "test" + b.rank());
            Files.writeString(f, "x");
            extra = " file=" + f;
        }
        System.out.println("PE " + b.rank() + "/" + b.size() + " pid=" + ProcessHandle.current().pid() + " job="
                + b.jobId() + " host=" + b.hostId() + " rv=" + System.getenv(LaunchEnv.RENDEZVOUS) + " gathered="
                + gathered + extra);
        System.err.println("err line from " + b.rank());
        switch (mode) {
            case "spam" -> { // many long lines at once from every PE: forwarding must keep them whole
                String tail = "x".repeat(300);
                for (int i = 0; i < 400; i++) {
                    System.out.println("spam " + b.rank() + " " + i + " " + tail);
                }
                b.finalized();
            }
            case "hello" -> {
                b.finalized();
                b.close();
            }
            case "reinit" -> {
                b.finalized();
                b.close();
                var again = LauncherBootstrap.processInstance(System.getenv(), PATIENCE_S);
                System.out.println("PE " + again.rank() + " again gathered=" + gather(again) + " same=" + (again == b));
                again.finalized();
            }
            case "exit3" -> {
                if (b.rank() == target) {
                    System.exit(3);
                }
                Thread.sleep(Long.MAX_VALUE);
            }
            case "partialThenExit3" -> { // rank target ends mid-line, as a PE killed while printing
                if (b.rank() == target) {
                    System.err.print("PE " + target + ": half a line");
                    System.err.flush();
                    Runtime.getRuntime().halt(3);
                }
                Thread.sleep(Long.MAX_VALUE);
            }
            case "global7" -> {
                if (b.rank() == target) {
                    b.globalExit(7);
                }
                Thread.sleep(Long.MAX_VALUE);
            }
            case "peerLost" -> { // rank target's transport loses the next rank, then it fails as a PE does
                if (b.rank() == target) {
                    b.peerLost((target + 1) % b.size(), "ucp_ep_create to PE " + (target + 1) % b.size() + " failed");
                    System.exit(1);
                }
                Thread.sleep(Long.MAX_VALUE);
            }
            case "stopped" -> { // rank target waits for the file args[2] (while stopped and resumed), then all meet
                if (b.rank() == target) {
                    Path go = Path.of(args[2]);
                    while (!Files.exists(go)) {
                        Thread.sleep(20);
                    }
                }
                System.out.println("PE " + b.rank() + " passed the barrier: " + gather(b));
                b.finalized();
                b.close();
            }
            case "finalizeThenExit" -> { // rank target leaves while the others enter a new exchange
                b.finalized();
                if (b.rank() != target) {
                    gather(b);
                }
            }
            case "sleep", "secret", "shmfile", "noconnect" -> Thread.sleep(Long.MAX_VALUE);
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    /** All-gathers "r<rank>" and checks every blob arrived at its rank's index. */
    private static String gather(LauncherBootstrap b) {
        byte[][] all = b.allGather(("r" + b.rank()).getBytes(StandardCharsets.UTF_8));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < all.length; i++) {
            String s = new String(all[i], StandardCharsets.UTF_8);
            if (!s.equals("r" + i)) {
                throw new AssertionError("blob " + i + " is " + s);
            }
            out.add(s);
        }
        return String.join(",", out);
    }
}
