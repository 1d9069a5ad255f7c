package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.shmem4j.inprocess.InProcessJob;

/**
 * The module boundary of {@code org.shmem4j}, checked on the compiled classes: what it exports
 * unconditionally is the API only, no exported signature mentions a type users cannot see (what
 * {@code javac -Xlint:exports} warns about, made a failure here), users can neither make symmetric
 * objects nor implement the library's interfaces; the API package uses no internal package but
 * {@code core} (its sealed types' permits) and the heap bridge, and the library's packages depend
 * on each other without a cycle, each only on its own layer and those below.
 */
class ModuleBoundaryTest {
    private static final Path CLASSES = classesDirectory();

    private static Path classesDirectory() {
        try {
            return Path.of(Shmem.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ModuleDescriptor descriptor() throws IOException {
        try (InputStream in = Files.newInputStream(CLASSES.resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }

    /** The packages every module may use. */
    private static Set<String> exportedToAll() throws IOException {
        var out = new TreeSet<String>();
        descriptor().exports().stream().filter(e -> !e.isQualified()).forEach(e -> out.add(e.source()));
        return out;
    }

    @Test
    void onlyTheApiIsExportedToEveryModule() throws IOException {
        ModuleDescriptor d = descriptor();
        assertEquals("org.shmem4j", d.name());
        assertEquals(Set.of("org.shmem4j", "org.shmem4j.inprocess"), exportedToAll());
        for (ModuleDescriptor.Exports e : d.exports()) {
            if (e.isQualified()) {
                assertTrue(Set.of("org.shmem4j.launcher", "org.shmem4j.junit").containsAll(e.targets()),
                        () -> e.source() + " is exported to " + e.targets());
            }
        }
        assertTrue(d.opens().isEmpty(), () -> "opens " + d.opens());
    }

    /** The public classes of the exported packages, nested public ones included. */
    private static List<Class<?>> exportedClasses() throws IOException, ClassNotFoundException {
        var out = new ArrayList<Class<?>>();
        for (String pkg : exportedToAll()) {
            try (Stream<Path> files = Files.list(CLASSES.resolve(pkg.replace('.', '/')))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                    String name = f.getFileName().toString().replace(".class", "");
                    Class<?> c = Class.forName(pkg + "." + name, false, Shmem.class.getClassLoader());
                    if (visible(c)) {
                        out.add(c);
                    }
                }
            }
        }
        return out;
    }

    /** Public or protected, and so is every class it is nested in. */
    private static boolean visible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if ((k.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED)) == 0) {
                return false;
            }
        }
        return !c.isSynthetic() && !c.isAnonymousClass();
    }

    @Test
    void noExportedSignatureMentionsAnInternalType() throws Exception {
        Set<String> exported = exportedToAll();
        var leaks = new TreeSet<String>();
        for (Class<?> c : exportedClasses()) {
            var seen = new HashSet<Type>();
            check(c.getGenericSuperclass(), c.getName() + " extends", exported, leaks, seen);
            for (Type t : c.getGenericInterfaces()) {
                check(t, c.getName() + " implements", exported, leaks, seen);
            }
            for (Field f : c.getDeclaredFields()) {
                if (apiMember(f)) {
                    check(f.getGenericType(), c.getName() + "." + f.getName(), exported, leaks, seen);
                }
            }
            var executables = new ArrayList<Executable>(List.of(c.getDeclaredMethods()));
            executables.addAll(List.of(c.getDeclaredConstructors()));
            for (Executable m : executables) {
                if (!apiMember(m) || (m instanceof Method method && method.isBridge())) {
                    continue;
                }
                String where = m instanceof Constructor ? "new " + c.getName() : c.getName() + "." + m.getName();
                if (m instanceof Method method) {
                    check(method.getGenericReturnType(), where, exported, leaks, seen);
                }
                for (Type t : m.getGenericParameterTypes()) {
                    check(t, where, exported, leaks, seen);
                }
                for (Type t : m.getGenericExceptionTypes()) {
                    check(t, where, exported, leaks, seen);
                }
            }
        }
        assertTrue(leaks.isEmpty(), () -> "the API mentions types of packages it does not export:\n  " + String.join("\n  ", leaks));
    }

    private static boolean apiMember(Member m) {
        return !m.isSynthetic() && (m.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED)) != 0;
    }

    /** Adds to {@code leaks} every class in {@code t} that a module requiring org.shmem4j cannot see. */
    private static void check(Type t, String where, Set<String> exported, Set<String> leaks, Set<Type> seen) {
        if (t == null || !seen.add(t)) {
            return;
        }
        switch (t) {
            case Class<?> c when c.isArray() -> check(c.getComponentType(), where, exported, leaks, seen);
            case Class<?> c when c.isPrimitive() -> { }
            case Class<?> c -> {
                boolean ours = c.getName().startsWith("org.shmem4j.");
                boolean seeable = ours ? exported.contains(c.getPackageName())
                        : c.getModule().isNamed() && c.getModule().isExported(c.getPackageName());
                if (!seeable) {
                    leaks.add(where + ": " + c.getName());
                }
            }
            case ParameterizedType p -> {
                check(p.getRawType(), where, exported, leaks, seen);
                for (Type a : p.getActualTypeArguments()) {
                    check(a, where, exported, leaks, seen);
                }
            }
            case GenericArrayType g -> check(g.getGenericComponentType(), where, exported, leaks, seen);
            case WildcardType w -> {
                for (Type b : w.getUpperBounds()) {
                    check(b, where, exported, leaks, seen);
                }
                for (Type b : w.getLowerBounds()) {
                    check(b, where, exported, leaks, seen);
                }
            }
            case TypeVariable<?> v -> {
                for (Type b : v.getBounds()) {
                    check(b, where, exported, leaks, seen);
                }
            }
            default -> throw new AssertionError("unexpected type " + t);
        }
    }

    @Test
    void symmetricObjectsAndTheLegacyViewCannotBeMadeByUsers() throws Exception {
        var makeable = new TreeSet<String>();
        for (Class<?> c : exportedClasses()) {
            boolean libraryMade = SymmetricObject.class.isAssignableFrom(c) || c == Legacy.class || c == InProcessJob.class;
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (libraryMade && apiMember(k)) {
                    makeable.add(k.toString());
                }
            }
        }
        assertTrue(makeable.isEmpty(), () -> "public constructors of library-made objects: " + makeable);
    }

    @Test
    void usersCannotImplementTheLibrarysInterfaces() {
        for (Class<?> c : List.of(Shmem.class, Context.class, Team.class, SymmetricObject.class)) {
            assertClosed(c, c);
        }
    }

    /** {@code c} is final, or sealed to classes of the library that are closed in turn. */
    private static void assertClosed(Class<?> root, Class<?> c) {
        assertTrue(c.getName().startsWith("org.shmem4j."), () -> root + " can be extended by " + c);
        if (!Modifier.isFinal(c.getModifiers())) {
            assertTrue(c.isSealed(), () -> root + " can be extended through " + c + ", which is neither final nor sealed");
            for (Class<?> sub : c.getPermittedSubclasses()) {
                assertClosed(root, sub);
            }
        }
    }

    /** Class names in descriptors and signatures: {@code Lorg/shmem4j/core/Foo;}, {@code Lorg/shmem4j/Team<}. */
    private static final Pattern NAMED = Pattern.compile("L(org/shmem4j/[\\w/$]+)[;<]");

    /**
     * Which of the library's packages each of its packages uses, from the constant pools of the
     * compiled classes (the class references, descriptors and signatures jdeps reads too).
     */
    private static Map<String, Set<String>> packageGraph() throws IOException {
        var graph = new TreeMap<String, Set<String>>();
        try (Stream<Path> files = Files.walk(CLASSES.resolve("org/shmem4j"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String from = packageOf(CLASSES.relativize(f).toString().replace('\\', '/'));
                Set<String> uses = graph.computeIfAbsent(from, k -> new TreeSet<>());
                for (PoolEntry e : ClassFile.of().parse(f).constantPool()) {
                    if (e instanceof ClassEntry c && c.asInternalName().startsWith("org/shmem4j/")) {
                        uses.add(packageOf(c.asInternalName()));
                    } else if (e instanceof Utf8Entry u && u.stringValue().contains("Lorg/shmem4j/")) {
                        Matcher m = NAMED.matcher(u.stringValue());
                        while (m.find()) {
                            uses.add(packageOf(m.group(1)));
                        }
                    }
                }
                uses.remove(from);
            }
        }
        return graph;
    }

    private static String packageOf(String internalName) {
        return internalName.substring(0, internalName.lastIndexOf('/')).replace('/', '.');
    }

    @Test
    void theApiUsesNoInternalPackageButTheCoreAndTheHeapBridge() throws IOException {
        Set<String> internal = new TreeSet<>(packageGraph().get("org.shmem4j"));
        internal.remove("org.shmem4j.inprocess");
        assertEquals(Set.of("org.shmem4j.core", "org.shmem4j.core.heap"), internal,
                "org.shmem4j may use org.shmem4j.core (the sealed types' permits, the runtime's entry points) and"
                        + " org.shmem4j.core.heap (the heap bridge) only; move what else it calls into the implementation");
    }

    /**
     * The library's packages form no cycle (issue 27, item 6) but the one the API closes: it uses
     * {@code core} and {@code core.heap} (above), and every package uses its types.
     */
    @Test
    void thePackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> graph = packageGraph();
        graph.get("org.shmem4j").removeAll(Set.of("org.shmem4j.core", "org.shmem4j.core.heap"));
        List<String> cycle = cycle(graph);
        assertTrue(cycle.isEmpty(), () -> "a package cycle: " + String.join(" -> ", cycle));
    }

    /** The layers below the API, top down (docs/DESIGN.md, section 2), each a package and those within it. */
    private static final List<String> LAYERS =
            List.of("org.shmem4j.core", "org.shmem4j.transport", "org.shmem4j.bootstrap", "org.shmem4j.foreign");

    /** The index of {@code pkg}'s layer in {@link #LAYERS}, or -1 above them (the API, in-process jobs, the PE's main). */
    private static int layer(String pkg) {
        for (int i = 0; i < LAYERS.size(); i++) {
            if (pkg.equals(LAYERS.get(i)) || pkg.startsWith(LAYERS.get(i) + ".")) {
                return i;
            }
        }
        return -1;
    }

    /** A package uses its own layer and those below, and of those above only the API's types (its exceptions). */
    @Test
    void noPackageUsesALayerAboveIt() throws IOException {
        var upward = new TreeSet<String>();
        packageGraph().forEach((from, uses) -> uses.stream()
                .filter(to -> !to.equals("org.shmem4j") && layer(to) < layer(from))
                .forEach(to -> upward.add(from + " -> " + to)));
        assertTrue(upward.isEmpty(), () -> "packages using a layer above theirs (core, transport, bootstrap, foreign, top"
                + " down):\n  " + String.join("\n  ", upward));
    }

    /** A cycle of {@code graph} as the path around it (first package last again), or empty. */
    private static List<String> cycle(Map<String, Set<String>> graph) {
        var state = new HashMap<String, Boolean>(); // false: on the path; true: done, on no cycle
        var path = new ArrayList<String>();
        for (String start : graph.keySet()) {
            List<String> found = cycleFrom(start, graph, state, path);
            if (!found.isEmpty()) {
                return found;
            }
        }
        return List.of();
    }

    private static List<String> cycleFrom(String node, Map<String, Set<String>> graph, Map<String, Boolean> state,
            List<String> path) {
        Boolean s = state.get(node);
        if (s != null) {
            if (s) {
                return List.of();
            }
            var around = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
            around.add(node);
            return around;
        }
        state.put(node, false);
        path.add(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            List<String> found = cycleFrom(next, graph, state, path);
            if (!found.isEmpty()) {
                return found;
            }
        }
        path.remove(path.size() - 1);
        state.put(node, true);
        return List.of();
    }
}
