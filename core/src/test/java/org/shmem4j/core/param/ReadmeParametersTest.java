package org.shmem4j.core.param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's list of environment variables is the registry ({@link Params#ALL}), so it cannot miss or misstate one. */
class ReadmeParametersTest {
    static final String BEGIN = "<!-- generated from the registry (core/param/Params.java); ReadmeParametersTest checks it -->\n";
    static final String END = "<!-- end of the generated list -->";

    /** One row per parameter, in the registry's order: variable (and deprecated alias), default, description. */
    static String table() {
        var out = new StringBuilder("| variable | default | meaning |\n|---|---|---|\n");
        for (Parameter<?> p : Params.ALL) {
            out.append("| `").append(p.name()).append('`');
            p.alias().ifPresent(a -> out.append(" (or `").append(a).append("`)"));
            out.append(" | ").append(shownDefault(p)).append(" | ")
                    .append(p.kind() == Parameter.Kind.SPEC ? "OpenSHMEM: " : "").append(p.description()).append(" |\n");
        }
        return out.toString();
    }

    private static <T> String shownDefault(Parameter<T> p) {
        return p.format(p.defaultValue());
    }

    @Test
    void theReadmeListsEveryParameterWithItsDefault() throws IOException {
        String readme = Files.readString(Path.of("../README.md"), StandardCharsets.UTF_8); // surefire runs in core/
        int begin = readme.indexOf(BEGIN), end = readme.indexOf(END);
        assertTrue(begin >= 0 && end > begin, "README.md lacks the markers of the generated list: " + BEGIN + " ... " + END);
        assertEquals(table(), readme.substring(begin + BEGIN.length(), end),
                "README.md's environment variables are not the registry's; replace the lines between its markers with:\n" + table());
    }
}
