package org.shmem4j.coverage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.shmem4j.Binds;
import org.shmem4j.coverage.CoverageChecker.Binding;

/** Finds the public API types of a package and the {@link Binds} values on their public members. */
public final class BindsScanner {

    private BindsScanner() {}

    /**
     * Public top-level and nested types of {@code pkg} (not subpackages) found in the code source
     * (classes directory or jar) that holds {@code anchor} — the main classes, not the test classes.
     */
    public static List<Class<?>> publicTypes(Class<?> anchor, String pkg) {
        URL location = anchor.getProtectionDomain().getCodeSource().getLocation();
        String dir = pkg.replace('.', '/') + "/";
        List<String> classNames;
        try {
            Path root = Path.of(location.toURI());
            if (Files.isDirectory(root)) {
                try (Stream<Path> files = Files.list(root.resolve(dir))) {
                    classNames = files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".class"))
                            .map(f -> pkg + "." + f.substring(0, f.length() - ".class".length())).toList();
                }
            } else {
                try (JarFile jar = new JarFile(root.toFile())) {
                    classNames = jar.stream().map(e -> e.getName())
                            .filter(n -> n.startsWith(dir) && n.endsWith(".class") && n.indexOf('/', dir.length()) < 0)
                            .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.')).toList();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        var out = new ArrayList<Class<?>>();
        for (String name : classNames.stream().sorted().toList()) {
            if (name.endsWith("package-info") || name.endsWith("module-info")) continue;
            try {
                Class<?> c = Class.forName(name, false, anchor.getClassLoader());
                if (isApiVisible(c)) out.add(c);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalStateException("cannot load " + name, e);
            }
        }
        return out;
    }

    private static boolean isApiVisible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass())
            if (!Modifier.isPublic(k.getModifiers()) || k.isAnonymousClass() || k.isLocalClass()) return false;
        return true;
    }

    /**
     * All @Binds values on public methods (including those inherited from superclasses and
     * superinterfaces, which {@link Class#getMethods()} reports) and public constructors.
     */
    public static List<Binding> binds(Collection<Class<?>> types) {
        var out = new ArrayList<Binding>();
        for (Class<?> type : types) {
            var members = new ArrayList<Executable>(List.of(type.getMethods()));
            members.addAll(List.of(type.getConstructors()));
            members.sort(Comparator.comparing(Executable::toGenericString));
            for (Executable m : members) {
                Binds b = m.getAnnotation(Binds.class);
                if (b == null) continue;
                String where = m.getDeclaringClass().getName() + "." + m.getName();
                for (String v : b.value()) out.add(new Binding(v, where));
            }
        }
        return out;
    }
}
