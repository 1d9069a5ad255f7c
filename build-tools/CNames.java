/*
 * From the @Binds annotations of the public API to what a C programmer searches for: every C
 * routine name of OpenSHMEM 1.6, expanded per type, and the Java method that implements it.
 *
 * Usage:
 *   java CNames.java table ROUTINES STATUS OUT.md SOURCE_DIR...
 *       writes the table docs/c-to-java.md (OUT.md "-" for stdout)
 *   java CNames.java index ROUTINES STATUS SOURCE_DIR
 *       adds to the Javadoc comment of every @Binds method, in place, a sentence "C: {@index
 *       shmem_long_put}, ..." naming each C routine it binds, so that the search box of the
 *       generated Javadoc finds every C name and leads to the method. Lines are not added (the
 *       sentence ends the description's last line), so line numbers stay those of the sources.
 *
 * ROUTINES is core's test resource spec-routines.txt (the spec's routines: name, family, status,
 * api), STATUS its binding-status.txt (routines not bound and why). A @Binds value stands for
 * itself, or with the spec's placeholders TYPENAME and SIZE for every current C routine of that
 * shape that is not "unsupported" (long double, complex), as BindingCoverageTest expands them.
 * Only the types of package org.shmem4j (the API) are read, as that test does.
 */
import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public class CNames {
    /** One routine of the spec (a line of spec-routines.txt). */
    record Routine(String name, String family, boolean current) {}

    /** A line of binding-status.txt: a name pattern, not-yet or unsupported, and why. */
    record Status(Pattern pattern, boolean unsupported, String reason) {}

    /** A bound Java method: its file, where its Javadoc comment ends, its display name and its @Binds values. */
    record Bound(Path file, int commentEnd, String type, String method, List<String> binds) {}

    public static void main(String[] args) throws IOException {
        if (args.length < 4 || !Set.of("table", "index").contains(args[0]) || (args[0].equals("index") && args.length != 4)) {
            System.err.println("usage: java CNames.java table ROUTINES STATUS OUT.md SOURCE_DIR...\n"
                    + "       java CNames.java index ROUTINES STATUS SOURCE_DIR");
            System.exit(2);
        }
        List<Routine> routines = routines(Path.of(args[1]));
        List<Status> status = status(Path.of(args[2]));
        if (args[0].equals("table")) {
            var dirs = Stream.of(args).skip(4).map(Path::of).toList();
            String table = table(routines, status, expand(scan(dirs), routines, status));
            if (args[3].equals("-")) {
                System.out.print(table);
            } else {
                Files.writeString(Path.of(args[3]), table, StandardCharsets.UTF_8);
            }
        } else {
            index(expand(scan(List.of(Path.of(args[3]))), routines, status));
        }
    }

    static List<Routine> routines(Path file) throws IOException {
        return Files.readAllLines(file).stream().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("\\s+")).filter(f -> f[3].equals("c"))
                .map(f -> new Routine(f[0], f[1], f[2].equals("current"))).toList();
    }

    static List<Status> status(Path file) throws IOException {
        return Files.readAllLines(file).stream().map(String::strip).filter(l -> !l.startsWith("#") && !l.isEmpty())
                .map(l -> l.split("\\s+", 3))
                .map(f -> new Status(pattern(f[0]), f[1].equals("unsupported"), f[2])).toList();
    }

    /** A @Binds value or status glob as a regex: TYPENAME a type name, SIZE a transfer size, * and ? globs. */
    static Pattern pattern(String glob) {
        String regex = Stream.of(glob.split("(?=TYPENAME|SIZE|[*?])|(?<=TYPENAME|SIZE|[*?])"))
                .map(part -> switch (part) {
                    case "TYPENAME" -> "[a-z0-9]+"; // the spec's type names have no underscore
                    case "SIZE" -> "(?:8|16|32|64|128)";
                    case "*" -> "[A-Za-z0-9_]*";
                    case "?" -> "[A-Za-z0-9_]";
                    default -> Pattern.quote(part);
                }).collect(Collectors.joining());
        return Pattern.compile(regex);
    }

    /** Every @Binds method of the public types of package org.shmem4j under {@code dirs}. */
    static List<Bound> scan(List<Path> dirs) throws IOException {
        var files = new ArrayList<Path>();
        for (Path dir : dirs) {
            Path api = dir.resolve("org/shmem4j");
            if (Files.isDirectory(api)) {
                try (var list = Files.list(api)) {
                    list.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
                }
            }
        }
        if (files.isEmpty()) {
            return List.of();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (var fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            var task = (JavacTask) javac.getTask(null, fm, null, List.of("-proc:none"), null, fm.getJavaFileObjectsFromPaths(files));
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            var out = new ArrayList<Bound>();
            for (CompilationUnitTree unit : task.parse()) {
                Path file = Path.of(unit.getSourceFile().toUri());
                String text = unit.getSourceFile().getCharContent(true).toString();
                new TreeScanner<Void, String>() {
                    @Override
                    public Void visitClass(ClassTree c, String outer) {
                        boolean visible = c.getModifiers().getFlags().contains(Modifier.PUBLIC);
                        String name = outer == null ? c.getSimpleName().toString() : outer + "." + c.getSimpleName();
                        return visible ? super.visitClass(c, name) : null;
                    }

                    @Override
                    public Void visitMethod(MethodTree m, String type) {
                        List<String> binds = binds(m);
                        if (!binds.isEmpty()) {
                            int start = (int) positions.getStartPosition(unit, m.getModifiers());
                            String params = m.getParameters().stream().map(VariableTree::getType).map(Tree::toString)
                                    .collect(Collectors.joining(", "));
                            String name = m.getName().contentEquals("<init>") ? type : m.getName().toString();
                            out.add(new Bound(file, commentEnd(text, start, file, name), type, name + "(" + params + ")", binds));
                        }
                        return null;
                    }
                }.scan(unit, null);
            }
            return out;
        }
    }

    /** The string values of the method's @Binds annotation, or none. */
    static List<String> binds(MethodTree m) {
        for (AnnotationTree a : m.getModifiers().getAnnotations()) {
            String type = a.getAnnotationType().toString();
            if (type.equals("Binds") || type.equals("org.shmem4j.Binds")) {
                var values = new ArrayList<String>();
                for (ExpressionTree arg : a.getArguments()) {
                    ExpressionTree v = arg instanceof AssignmentTree as ? as.getExpression() : arg;
                    List<? extends ExpressionTree> items = v instanceof NewArrayTree array ? array.getInitializers() : List.of(v);
                    items.forEach(i -> values.add((String) ((LiteralTree) i).getValue()));
                }
                return values;
            }
        }
        return List.of();
    }

    /** Where the Javadoc comment just before a declaration starting at {@code start} ends (at its {@code *}{@code /}). */
    static int commentEnd(String text, int start, Path file, String method) {
        int end = start;
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (end < 2 || !text.startsWith("*/", end - 2) || text.lastIndexOf("/**", end) < 0) {
            throw new IllegalStateException(file + ": " + method + " has @Binds but no Javadoc comment");
        }
        return end - 2;
    }

    /** C routine name to the Java methods that bind it, for every binding of {@code bound}. */
    static Map<String, List<Bound>> expand(List<Bound> bound, List<Routine> routines, List<Status> status) {
        Set<String> current = routines.stream().filter(Routine::current).map(Routine::name).collect(Collectors.toSet());
        Set<String> all = routines.stream().map(Routine::name).collect(Collectors.toSet());
        var byName = new TreeMap<String, List<Bound>>();
        for (Bound b : bound) {
            for (String value : b.binds()) {
                for (String name : names(value, current, all, status)) {
                    byName.computeIfAbsent(name, k -> new ArrayList<>()).add(b);
                }
            }
        }
        return byName;
    }

    /** The routines a @Binds value names: itself, or the current supported routines of its shape. */
    static List<String> names(String value, Set<String> current, Set<String> all, List<Status> status) {
        if (!value.contains("TYPENAME") && !value.contains("SIZE")) {
            return all.contains(value) ? List.of(value) : List.of();
        }
        Pattern p = pattern(value);
        return current.stream().filter(n -> p.matcher(n).matches())
                .filter(n -> status.stream().noneMatch(s -> s.unsupported() && s.pattern().matcher(n).matches()))
                .sorted().toList();
    }

    static String table(List<Routine> routines, List<Status> status, Map<String, List<Bound>> bound) {
        var out = new StringBuilder("""
                # OpenSHMEM C routines and their Java methods

                Generated from the `@Binds` annotations of the API by `build-tools/CNames.java`; do not edit
                (`CToJavaTableTest` fails when this file is stale and prints the command that regenerates it).
                Every routine of the OpenSHMEM 1.6 C API, expanded per type, grouped as the specification's
                sections are. The Java methods drop `shmem_`, `ctx_`/`team_` (the receiver) and the type
                (overloads select it): see the Javadoc of each method, whose search box also finds these names.

                """);
        Map<String, List<Routine>> families = new LinkedHashMap<>();
        routines.stream().sorted((a, b) -> a.name().compareTo(b.name()))
                .forEach(r -> families.computeIfAbsent(r.family(), k -> new ArrayList<>()).add(r));
        for (var family : new TreeMap<>(families).entrySet()) {
            out.append("## ").append(family.getKey()).append("\n\n| C routine | Java |\n|---|---|\n");
            for (Routine r : family.getValue()) {
                List<Bound> methods = bound.getOrDefault(r.name(), List.of());
                String java = methods.isEmpty() ? "*" + unbound(r, status) + "*"
                        : methods.stream().map(b -> "`" + b.type() + "." + b.method().substring(0, b.method().indexOf('(')) + "`")
                                .distinct().collect(Collectors.joining(", "));
                out.append("| `").append(r.name()).append("` | ").append(java)
                        .append(r.current() || methods.isEmpty() ? "" : " (deprecated)").append(" |\n");
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String unbound(Routine r, List<Status> status) {
        return status.stream().filter(s -> s.pattern().matcher(r.name()).matches()).findFirst()
                .map(s -> (s.unsupported() ? "not supported: " : "not yet: ") + s.reason())
                .orElse(r.current() ? "not bound" : "deprecated (Annex C), not bound");
    }

    /** Adds the {@index} sentence to every bound method's comment, file by file, from the end backwards. */
    static void index(Map<String, List<Bound>> bound) throws IOException {
        var namesByMethod = new LinkedHashMap<Bound, TreeSet<String>>();
        bound.forEach((name, methods) -> methods.forEach(b -> namesByMethod.computeIfAbsent(b, k -> new TreeSet<>()).add(name)));
        var byFile = namesByMethod.keySet().stream().collect(Collectors.groupingBy(Bound::file));
        for (var entry : byFile.entrySet()) {
            var text = new StringBuilder(Files.readString(entry.getKey(), StandardCharsets.UTF_8));
            var methods = entry.getValue().stream().sorted((a, b) -> b.commentEnd() - a.commentEnd()).toList();
            for (Bound b : methods) {
                int at = descriptionEnd(text, b.commentEnd());
                String sentence = namesByMethod.get(b).stream().map(n -> "{@index " + n + "}")
                        .collect(Collectors.joining(", ", " <p>C: ", "."));
                text.insert(at, sentence);
            }
            Files.writeString(entry.getKey(), text, StandardCharsets.UTF_8);
        }
    }

    /**
     * Where the main description of the comment ending at {@code end} ends: before the line break
     * that leads to its first block tag ({@code @param}, ...), else before the closing {@code *}{@code /}.
     */
    static int descriptionEnd(CharSequence text, int end) {
        int start = text.toString().lastIndexOf("/**", end);
        var tag = Pattern.compile("\\n[ \\t]*\\*?[ \\t]*@").matcher(text).region(start, end);
        if (tag.find()) {
            return tag.start();
        }
        int at = end;
        while (at > start + 3 && (text.charAt(at - 1) == ' ' || text.charAt(at - 1) == '\t')) {
            at--;
        }
        // a comment whose last line is only "*/": end the sentence on the line before
        if (at > 0 && text.charAt(at - 1) == '\n') {
            at--;
            while (at > start + 3 && (text.charAt(at - 1) == ' ' || text.charAt(at - 1) == '\t' || text.charAt(at - 1) == '*')) {
                at--;
            }
        }
        return at;
    }
}
