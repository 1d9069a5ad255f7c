package org.shmem4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.shmem4j.inprocess.InProcessJob;

/**
 * The module boundary of {@code org.shmem4j}, checked on the compiled classes: what it exports
 * unconditionally is the API only, no exported signature mentions a type users cannot see (what
 * {@code javac -Xlint:exports} warns about, made a failure here), users can neither make symmetric
 * objects nor implement the library's interfaces.
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
}
