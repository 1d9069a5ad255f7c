package org.shmem4j.core.info;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.shmem4j.Shmem;

/**
 * Which build of shmem4j this is: the Maven version and git commit recorded by the build
 * ({@code build-tools/BuildInfo.java} writes {@code build-info.properties} beside this class).
 *
 * @param version the library version, e.g. {@code "0.1.0-SNAPSHOT"}, or {@code "unknown"}
 * @param commit the git commit it was built from ({@code -dirty} with uncommitted changes), or {@code "unknown"}
 */
public record BuildInfo(String version, String commit) {
    private static final BuildInfo THIS = read();

    /** This library's build. */
    public static BuildInfo current() {
        return THIS;
    }

    /** One line: library version and commit, and the OpenSHMEM version implemented. */
    public String describe() {
        return Shmem.VENDOR_STRING + " " + version + " (commit " + commit + "), OpenSHMEM " + Shmem.MAJOR_VERSION + "."
                + Shmem.MINOR_VERSION;
    }

    private static BuildInfo read() {
        var p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build-info.properties")) {
            if (in != null) { // absent only in a build that skipped generate-resources (an IDE's)
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new BuildInfo(p.getProperty("version", "unknown"), p.getProperty("commit", "unknown"));
    }
}
