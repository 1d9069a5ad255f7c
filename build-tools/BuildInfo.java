/*
 * Records which build a library jar is, for oshrun --version and --info and SHMEM_VERSION.
 *
 * Usage: java BuildInfo.java OUTPUT_FILE VERSION
 *
 * Writes a properties file with "version" (the Maven version) and "commit": git's HEAD in the
 * current directory, with "-dirty" when tracked files differ from it, or "unknown" outside a git
 * checkout (a source tarball) or without git. The file is rewritten only when its content
 * changes, so an unchanged build stays up to date.
 */
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

public class BuildInfo {
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: java BuildInfo.java OUTPUT_FILE VERSION");
            System.exit(2);
        }
        String commit = git("rev-parse", "HEAD");
        if (commit == null) {
            commit = "unknown";
        } else if (!"".equals(git("status", "--porcelain", "--untracked-files=no"))) {
            commit += "-dirty";
        }
        String text = "version=" + args[1] + "\ncommit=" + commit + "\n";
        Path out = Path.of(args[0]);
        if (Files.isRegularFile(out) && Files.readString(out, StandardCharsets.UTF_8).equals(text)) {
            return;
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, text, StandardCharsets.UTF_8);
    }

    /** git's trimmed output, or null when git is missing or fails. */
    private static String git(String... args) throws InterruptedException {
        var command = new java.util.ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? output : null;
        } catch (IOException e) {
            return null;
        }
    }
}
