package org.shmem4j.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Checks the constants a binding through {@code java.lang.foreign} hard-codes (struct sizes, field
 * offsets, flags, enum values, key strings) against a C library's installed headers: it compiles a
 * small C program that prints each C expression and compares. Every {@code static final} int, long
 * or String of the binding class must have an expression, so a constant added without a check
 * fails by name.
 *
 * @param test the test's name, for messages
 * @param header the header to include, e.g. {@code ucp/api/ucp.h}
 * @param cflags extra gcc options (include directories)
 * @param headerPackage what to install when the header is missing
 * @param missing called with the reason when gcc or the header is missing (skips, or fails in CI)
 */
public record HeaderCheck(String test, String header, List<String> cflags, String headerPackage, Consumer<String> missing) {
    private static final long TIMEOUT_SECONDS = 60;

    /**
     * Fails unless every constant of {@code holder}, plus {@code extra} (name to Java value and C
     * expression, for values that are not fields), equals its expression in {@code table} (lines of
     * a constant's name, blanks, then the C expression).
     */
    public void verify(Class<?> holder, String table, Map<String, Map.Entry<Object, String>> extra, Path dir) throws Exception {
        Map<String, String> exprs = new LinkedHashMap<>();
        table.lines().map(String::strip).filter(l -> !l.isEmpty())
                .forEach(line -> exprs.put(line.split("\\s+", 2)[0], line.split("\\s+", 2)[1]));
        Map<String, Object> java = constantsOf(holder);

        var unchecked = new TreeSet<>(java.keySet());
        unchecked.removeAll(exprs.keySet());
        var unknown = new TreeSet<>(exprs.keySet());
        unknown.removeAll(java.keySet());
        if (!unchecked.isEmpty() || !unknown.isEmpty()) {
            fail(test + ": its table does not match the constants of " + holder.getSimpleName() + ": no C expression for "
                    + unchecked + "; not declared in " + holder.getSimpleName() + ": " + unknown);
        }
        extra.forEach((name, valueAndExpr) -> {
            java.put(name, valueAndExpr.getKey());
            exprs.put(name, valueAndExpr.getValue());
        });
        Map<String, String> c = fromHeaders(exprs, java, dir);

        List<String> wrong = new ArrayList<>();
        exprs.forEach((name, expr) -> {
            if (!String.valueOf(java.get(name)).equals(c.get(name))) {
                wrong.add(name + " = " + java.get(name) + " in " + holder.getSimpleName() + ", but " + expr + " = " + c.get(name)
                        + " in the headers");
            }
        });
        if (!wrong.isEmpty()) {
            fail(holder.getSimpleName() + " disagrees with <" + header + ">:\n  " + String.join("\n  ", wrong));
        }
    }

    /** Every {@code static final} int or long (as a Long) or String declared in {@code holder}, by name. */
    private static Map<String, Object> constantsOf(Class<?> holder) throws IllegalAccessException {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Field f : holder.getDeclaredFields()) {
            int m = f.getModifiers();
            if (!Modifier.isStatic(m) || !Modifier.isFinal(m)) {
                continue;
            }
            f.setAccessible(true);
            if (f.getType() == int.class || f.getType() == long.class) {
                values.put(f.getName(), ((Number) f.get(null)).longValue());
            } else if (f.getType() == String.class) {
                values.put(f.getName(), f.get(null));
            }
        }
        return values;
    }

    /** Compiles and runs a C program printing {@code NAME=value} for each expression; calls {@link #missing} if gcc or the header is. */
    private Map<String, String> fromHeaders(Map<String, String> exprs, Map<String, Object> java, Path dir) throws Exception {
        StringBuilder src = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n#include <" + header + ">\nint main(void) {\n");
        exprs.forEach((name, expr) -> src.append(java.get(name) instanceof String
                ? "    printf(\"%s=%s\\n\", \"" + name + "\", (" + expr + "));\n"
                : "    printf(\"%s=%lld\\n\", \"" + name + "\", (long long) (" + expr + "));\n"));
        Files.writeString(dir.resolve("layout.c"), src.append("    return 0;\n}\n"));

        var gccCommand = new ArrayList<>(List.of("gcc"));
        gccCommand.addAll(cflags);
        gccCommand.addAll(List.of("-o", "layout", "layout.c"));
        Output gcc;
        try {
            gcc = run(dir, gccCommand);
        } catch (IOException e) {
            missing.accept("gcc could not be run (" + e.getMessage() + "); install gcc");
            throw e;
        }
        if (gcc.exit != 0) {
            if (gcc.text.contains(header + ": No such file")) {
                missing.accept("the headers (<" + header + ">) were not found; install " + headerPackage);
            }
            fail("gcc could not compile " + dir.resolve("layout.c") + ":\n" + gcc.text);
        }
        Output layout = run(dir, List.of(dir.resolve("layout").toString()));
        if (layout.exit != 0) {
            fail("the compiled layout program exited with " + layout.exit + ":\n" + layout.text);
        }
        Map<String, String> values = new LinkedHashMap<>();
        layout.text.lines().forEach(line -> values.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1)));
        return values;
    }

    private record Output(int exit, String text) {}

    /** Runs a command in {@code dir}, giving it {@value #TIMEOUT_SECONDS} s; its exit status and output (stdout and stderr). */
    private static Output run(Path dir, List<String> command) throws IOException, InterruptedException {
        Path out = dir.resolve("out.txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile());
        pb.environment().put("LC_ALL", "C"); // gcc's messages in English, for the missing-header check
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
        }
        return new Output(p.exitValue(), Files.readString(out));
    }
}
