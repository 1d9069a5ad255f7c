package org.shmem4j.core.param;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

import org.shmem4j.ShmemException;

/**
 * The values of every registered parameter for one PE, resolved once from an environment map
 * (the caller passes {@code System.getenv()} at start-up; tests pass their own maps). Immutable.
 *
 * <p>Resolution per parameter: its {@code SHMEM_*} variable if set, else its deprecated
 * {@code SMA_*} alias if set, else the default. As the spec requires, a set {@code SHMEM_*}
 * variable controls even when the alias is also set; the alias is then not even parsed.
 */
public final class Parameters {
    /** The prefix of variables this library owns; launcher variables ({@code SHMEM4J_*}) differ. */
    private static final String PREFIX = "SHMEM_";
    private static final String DEFAULT_SOURCE = "default";

    private record Resolved(Object value, String source) {}

    private final List<Parameter<?>> registry;
    private final Map<Parameter<?>, Resolved> values;
    private final List<String> unknown;

    private Parameters(List<Parameter<?>> registry, Map<Parameter<?>, Resolved> values,
            List<String> unknown) {
        this.registry = registry;
        this.values = values;
        this.unknown = unknown;
    }

    /**
     * Resolves every parameter of the registry ({@link Params#ALL}).
     *
     * @param env the environment, e.g. {@code System.getenv()}
     * @return the values
     * @throws ShmemException if any variable is invalid; the message lists every invalid one
     */
    public static Parameters from(Map<String, String> env) {
        return from(env, Params.ALL);
    }

    /**
     * Resolves every parameter of a given registry (for tests and for parameters of other
     * modules).
     *
     * @param env the environment
     * @param registry the parameters, with distinct names and aliases
     * @return the values
     * @throws ShmemException if any variable is invalid; the message lists every invalid one,
     *     one per line, and each failure is also attached as a suppressed exception
     * @throws IllegalArgumentException if two parameters share a name or alias
     */
    public static Parameters from(Map<String, String> env, List<Parameter<?>> registry) {
        Objects.requireNonNull(env, "env");
        List<Parameter<?>> params = List.copyOf(registry);
        Set<String> names = new HashSet<>();
        for (Parameter<?> p : params) {
            if (!names.add(p.name()) || p.alias().map(a -> !names.add(a)).orElse(false)) {
                throw new IllegalArgumentException("duplicate variable in registry: " + p);
            }
        }
        Map<Parameter<?>, Resolved> values = new LinkedHashMap<>();
        List<ShmemException> errors = new ArrayList<>();
        for (Parameter<?> p : params) {
            try {
                values.put(p, resolve(p, env));
            } catch (ShmemException e) {
                errors.add(e);  // keep going: the user should see every mistake at once
            }
        }
        if (!errors.isEmpty()) {
            throw combine(errors);
        }
        List<String> unknown = env.keySet().stream()
                .filter(k -> k.startsWith(PREFIX) && !names.contains(k))
                .sorted()
                .toList();
        return new Parameters(params, Collections.unmodifiableMap(values), unknown);
    }

    /**
     * The values all defaults, as if the environment were empty.
     *
     * @return the default values
     */
    public static Parameters defaults() {
        return from(Map.of());
    }

    /**
     * The registry.
     *
     * @return every parameter, in {@code SHMEM_INFO} order (same as {@link Params#ALL})
     */
    public static List<Parameter<?>> all() {
        return Params.ALL;
    }

    /**
     * The value of a parameter.
     *
     * @param parameter a registered parameter (the constant itself, e.g. {@link Params#DEBUG})
     * @param <T> the value type
     * @return its value
     * @throws IllegalArgumentException if the parameter is not registered
     */
    public <T> T get(Parameter<T> parameter) {
        @SuppressWarnings("unchecked") // stored by resolve() from this parameter's own parser
        T value = (T) lookup(parameter).value();
        return value;
    }

    /**
     * Where a parameter's value came from.
     *
     * @param parameter a registered parameter
     * @return {@code "default"}, or the variable that supplied the value (the name or the alias)
     * @throws IllegalArgumentException if the parameter is not registered
     */
    public String source(Parameter<?> parameter) {
        return lookup(parameter).source();
    }

    /**
     * {@code SHMEM_*} variables of the environment that are not registered (probably misspelt),
     * sorted. {@code SHMEM4J_*} launcher variables and {@code SMA_*} variables are never listed.
     *
     * @return the unknown variable names
     */
    public List<String> unknownVariables() {
        return unknown;
    }

    /**
     * The text printed when {@code SHMEM_INFO} is set (and by {@code oshrun --info}): a table with
     * one row per parameter (variable, value, default, source, kind, description), followed by the
     * deprecated aliases.
     *
     * @return the table, lines separated by {@code '\n'}, ending with a newline
     */
    public String infoText() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"VARIABLE", "VALUE", "DEFAULT", "SOURCE", "KIND", "DESCRIPTION"});
        List<String> aliases = new ArrayList<>();
        for (Parameter<?> p : registry) {
            rows.add(new String[] {p.name(), formatValue(p), formatDefault(p), source(p),
                p.kind() == Parameter.Kind.SPEC ? "spec" : "shmem4j", p.description()});
            p.alias().ifPresent(a -> aliases.add(a + " -> " + p.name()));
        }
        int columns = rows.getFirst().length;
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder out = new StringBuilder("shmem4j environment parameters:\n");
        for (String[] row : rows) {
            out.append("  ");
            for (int c = 0; c < columns - 1; c++) {
                out.append(row[c]).append(" ".repeat(width[c] - row[c].length() + 2));
            }
            out.append(row[columns - 1]).append('\n');
        }
        if (!aliases.isEmpty()) {
            out.append("Deprecated aliases, read only when the SHMEM_ variable is unset: ")
                    .append(String.join(", ", aliases)).append('\n');
        }
        return out.toString();
    }

    @Override
    public String toString() {
        StringJoiner s = new StringJoiner(", ", "Parameters[", "]");
        values.forEach((p, r) -> s.add(p.name() + "=" + r.value()));
        return s.toString();
    }

    private static Resolved resolve(Parameter<?> p, Map<String, String> env) {
        String text = env.get(p.name());
        if (text != null) {
            return new Resolved(p.parse(p.name(), text), p.name());
        }
        String alias = p.alias().orElse(null);
        if (alias != null && (text = env.get(alias)) != null) {
            return new Resolved(p.parse(alias, text), alias);
        }
        return new Resolved(p.defaultValue(), DEFAULT_SOURCE);
    }

    private static ShmemException combine(List<ShmemException> errors) {
        if (errors.size() == 1) {
            return errors.getFirst();
        }
        StringBuilder msg = new StringBuilder()
                .append(errors.size()).append(" environment variables are invalid:");
        errors.forEach(e -> msg.append("\n  ").append(e.getMessage()));
        ShmemException combined = new ShmemException(msg.toString());
        errors.forEach(combined::addSuppressed);
        return combined;
    }

    private Resolved lookup(Parameter<?> parameter) {
        Resolved r = values.get(Objects.requireNonNull(parameter, "parameter"));
        if (r == null) {
            throw new IllegalArgumentException("not a registered parameter: " + parameter);
        }
        return r;
    }

    // Captures the wildcard so the value can be handed back to its own parameter's formatter.
    private <T> String formatValue(Parameter<T> p) {
        return p.format(get(p));
    }

    private static <T> String formatDefault(Parameter<T> p) {
        return p.format(p.defaultValue());
    }
}
