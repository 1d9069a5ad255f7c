package org.shmem4j.core.param;

import java.math.BigInteger;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.shmem4j.ShmemException;

/**
 * The immutable definition of one environment parameter: its variable name, an optional deprecated
 * alias ({@code SMA_*}), default value, parser, display formatter, one-line description and whether
 * the OpenSHMEM specification or this implementation defines it. Values are resolved by
 * {@link Parameters}; the registry of all parameters is {@link Params}.
 *
 * <p>Instances are built with the factory methods ({@link #flag}, {@link #size}, {@link #intRange},
 * {@link #longRange}, {@link #choice}, {@link #directory}, {@link #of}) and refined with the
 * {@code with}/{@code as} methods, which return new instances. Equality is identity: a parameter
 * is looked up in {@link Parameters} by the very constant that was registered.
 *
 * @param <T> the value type
 */
public final class Parameter<T> {
    /** Who defines a parameter. */
    public enum Kind {
        /** Defined by OpenSHMEM 1.6, section 8. */
        SPEC,
        /** Specific to shmem4j. */
        IMPLEMENTATION
    }

    /** Values that turn a flag off; everything else (case-insensitively) turns it on. */
    private static final Set<String> FLAG_OFF = Set.of("", "0", "false", "no", "off");

    private final String name;
    private final String alias;
    private final T defaultValue;
    private final ValueParser<T> parser;
    private final Function<? super T, String> formatter;
    private final String description;
    private final Kind kind;

    private Parameter(String name, String alias, T defaultValue, ValueParser<T> parser,
            Function<? super T, String> formatter, String description, Kind kind) {
        this.name = requireName(name, "name");
        this.alias = alias == null ? null : requireName(alias, "alias");
        this.defaultValue = Objects.requireNonNull(defaultValue, "defaultValue");
        this.parser = Objects.requireNonNull(parser, "parser");
        this.formatter = Objects.requireNonNull(formatter, "formatter");
        this.description = Objects.requireNonNull(description, "description");
        this.kind = Objects.requireNonNull(kind, "kind");
        if (alias != null && alias.equals(name)) {
            throw new IllegalArgumentException("alias equals name: " + name);
        }
    }

    /**
     * A parameter of any type: an implementation parameter without alias, shown with
     * {@link String#valueOf}.
     *
     * @param name the variable name, e.g. {@code "SHMEM_FOO"}
     * @param defaultValue the value when the variable is not set
     * @param parser parses the variable's text
     * @param description one line for {@code SHMEM_INFO}
     * @param <T> the value type
     * @return the parameter
     */
    public static <T> Parameter<T> of(String name, T defaultValue, ValueParser<T> parser,
            String description) {
        return new Parameter<>(name, null, defaultValue, parser, String::valueOf, description,
                Kind.IMPLEMENTATION);
    }

    /**
     * A boolean flag, off by default. The spec gives its flags the value "Any"; here a set
     * variable is on unless its value, stripped and ignoring case, is {@code ""}, {@code "0"},
     * {@code "false"}, {@code "no"} or {@code "off"}, so that {@code SHMEM_DEBUG=0} can switch
     * debugging off again. A flag never fails to parse.
     *
     * @param name the variable name
     * @param description one line for {@code SHMEM_INFO}
     * @return the parameter
     */
    public static Parameter<Boolean> flag(String name, String description) {
        return new Parameter<>(name, null, false,
                (variable, text) -> !FLAG_OFF.contains(text.strip().toLowerCase(Locale.ROOT)),
                String::valueOf, description, Kind.IMPLEMENTATION);
    }

    /**
     * A byte size in the {@code SHMEM_SYMMETRIC_SIZE} syntax (see {@link SizeParser}), shown as
     * bytes with the compact form when that differs, e.g. {@code "134217728 (128m)"}.
     *
     * @param name the variable name
     * @param defaultBytes the default size in bytes, at least 0
     * @param description one line for {@code SHMEM_INFO}
     * @return the parameter
     */
    public static Parameter<Long> size(String name, long defaultBytes, String description) {
        if (defaultBytes < 0) {
            throw new IllegalArgumentException("negative default size " + defaultBytes);
        }
        return new Parameter<>(name, null, defaultBytes, SizeParser::parse, Parameter::formatSize,
                description, Kind.IMPLEMENTATION);
    }

    /**
     * A byte size as {@link #size}, either 0 (off) or in {@code [min, max]}.
     *
     * @param name the variable name
     * @param defaultBytes the default size, 0 or within the range
     * @param min the smallest size allowed besides 0
     * @param max the largest size allowed
     * @param description one line for {@code SHMEM_INFO}
     * @return the parameter
     */
    public static Parameter<Long> sizeOrOff(String name, long defaultBytes, long min, long max, String description) {
        if (defaultBytes != 0) {
            checkRange(defaultBytes, min, max);
        }
        return new Parameter<>(name, null, defaultBytes, (variable, text) -> {
            long bytes = SizeParser.parse(variable, text);
            if (bytes != 0 && (bytes < min || bytes > max)) {
                throw new ShmemException(variable + "='" + text + "' is out of range: expected 0 (off) or " + formatSize(min)
                        + " to " + formatSize(max));
            }
            return bytes;
        }, Parameter::formatSize, description, Kind.IMPLEMENTATION);
    }

    /**
     * An {@code int} in {@code [min, max]}, written in decimal with an optional sign.
     *
     * @param name the variable name
     * @param defaultValue the default, within the range
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @param description one line for {@code SHMEM_INFO}
     * @return the parameter
     */
    public static Parameter<Integer> intRange(String name, int defaultValue, int min, int max,
            String description) {
        checkRange(defaultValue, min, max);
        return new Parameter<>(name, null, defaultValue,
                (variable, text) -> (int) parseInRange(variable, text, min, max),
                String::valueOf, description, Kind.IMPLEMENTATION);
    }

    /**
     * A {@code long} in {@code [min, max]}, written in decimal with an optional sign.
     *
     * @param name the variable name
     * @param defaultValue the default, within the range
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @param description one line for {@code SHMEM_INFO}
     * @return the parameter
     */
    public static Parameter<Long> longRange(String name, long defaultValue, long min, long max,
            String description) {
        checkRange(defaultValue, min, max);
        return new Parameter<>(name, null, defaultValue,
                (variable, text) -> parseInRange(variable, text, min, max),
                String::valueOf, description, Kind.IMPLEMENTATION);
    }

    /**
     * One of a fixed set of names, matched ignoring case; the value is the name as spelled in
     * {@code choices}.
     *
     * @param name the variable name
     * @param defaultValue the default, one of {@code choices}
     * @param choices the allowed names, distinct ignoring case
     * @param description one line for {@code SHMEM_INFO}
     * @return the parameter
     */
    public static Parameter<String> choice(String name, String defaultValue, List<String> choices,
            String description) {
        List<String> allowed = List.copyOf(choices);
        if (allowed.isEmpty() || !allowed.contains(defaultValue)) {
            throw new IllegalArgumentException(
                    "default " + defaultValue + " is not one of " + allowed);
        }
        long distinct = allowed.stream().map(c -> c.toLowerCase(Locale.ROOT)).distinct().count();
        if (distinct != allowed.size()) {
            throw new IllegalArgumentException("choices differ only in case: " + allowed);
        }
        return new Parameter<>(name, null, defaultValue, (variable, text) -> {
            String wanted = text.strip();
            return allowed.stream().filter(c -> c.equalsIgnoreCase(wanted)).findFirst()
                    .orElseThrow(() -> new ShmemException(variable + "='" + text
                            + "' is not a valid choice: expected one of "
                            + String.join(", ", allowed)));
        }, String::valueOf, description, Kind.IMPLEMENTATION);
    }

    /**
     * A directory path; the value must be non-blank (existence is checked by whoever uses it).
     *
     * @param name the variable name
     * @param defaultValue the default directory
     * @param description one line for {@code SHMEM_INFO}
     * @return the parameter
     */
    public static Parameter<Path> directory(String name, Path defaultValue, String description) {
        return new Parameter<>(name, null, defaultValue, (variable, text) -> {
            String s = text.strip();
            if (s.isEmpty()) {
                throw new ShmemException(variable + "='" + text
                        + "' is not a valid directory: expected a non-empty path");
            }
            try {
                return Path.of(s);
            } catch (InvalidPathException e) {
                throw new ShmemException(variable + "='" + text
                        + "' is not a valid directory: " + e.getReason(), e);
            }
        }, String::valueOf, description, Kind.IMPLEMENTATION);
    }

    /**
     * This parameter with a deprecated alias, read when the variable itself is not set.
     *
     * @param deprecatedAlias e.g. {@code "SMA_SYMMETRIC_SIZE"}
     * @return a new parameter
     */
    public Parameter<T> withAlias(String deprecatedAlias) {
        return new Parameter<>(name, Objects.requireNonNull(deprecatedAlias, "deprecatedAlias"),
                defaultValue, parser, formatter, description, kind);
    }

    /**
     * This parameter marked as defined by the OpenSHMEM specification.
     *
     * @return a new parameter
     */
    public Parameter<T> asSpec() {
        return new Parameter<>(name, alias, defaultValue, parser, formatter, description,
                Kind.SPEC);
    }

    /**
     * This parameter with a different way of showing values in {@code SHMEM_INFO}.
     *
     * @param valueFormatter renders a value
     * @return a new parameter
     */
    public Parameter<T> withFormatter(Function<? super T, String> valueFormatter) {
        return new Parameter<>(name, alias, defaultValue, parser, valueFormatter, description,
                kind);
    }

    /** @return the variable name, e.g. {@code "SHMEM_SYMMETRIC_SIZE"} */
    public String name() {
        return name;
    }

    /** @return the deprecated alias, e.g. {@code "SMA_SYMMETRIC_SIZE"}, if any */
    public Optional<String> alias() {
        return Optional.ofNullable(alias);
    }

    /** @return the value used when neither the variable nor its alias is set */
    public T defaultValue() {
        return defaultValue;
    }

    /** @return the one-line description shown by {@code SHMEM_INFO} */
    public String description() {
        return description;
    }

    /** @return whether the spec or this implementation defines the parameter */
    public Kind kind() {
        return kind;
    }

    /**
     * Parses a raw value.
     *
     * @param variable the variable that supplied it (name or alias), for the error message
     * @param text the raw value
     * @return the value
     * @throws ShmemException if the value is invalid
     */
    public T parse(String variable, String text) {
        return Objects.requireNonNull(parser.parse(variable, text), "parser returned null");
    }

    /**
     * Renders a value of this parameter for display.
     *
     * @param value a value of this parameter
     * @return its display form
     */
    public String format(T value) {
        return formatter.apply(value);
    }

    @Override
    public String toString() {
        return name;
    }

    private static String formatSize(long bytes) {
        String compact = SizeParser.format(bytes);
        return compact.equals(Long.toString(bytes)) ? compact : bytes + " (" + compact + ")";
    }

    private static long parseInRange(String variable, String text, long min, long max) {
        String s = text.strip();
        String range = "expected an integer from " + min + " to " + max;
        // Regex first so that BigInteger never sees forms such as "1_000"; BigInteger then
        // compares exactly even for values far outside a long.
        if (!s.matches("[+-]?[0-9]+")) {
            throw new ShmemException(
                    variable + "='" + text + "' is not a valid integer: " + range);
        }
        BigInteger value = new BigInteger(s);
        if (value.compareTo(BigInteger.valueOf(min)) < 0
                || value.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new ShmemException(variable + "='" + text + "' is out of range: " + range);
        }
        return value.longValueExact();
    }

    private static void checkRange(long defaultValue, long min, long max) {
        if (min > max || defaultValue < min || defaultValue > max) {
            throw new IllegalArgumentException(
                    "default " + defaultValue + " outside [" + min + ", " + max + "]");
        }
    }

    private static String requireName(String s, String what) {
        Objects.requireNonNull(s, what);
        if (!s.matches("[A-Z][A-Z0-9_]*")) {
            throw new IllegalArgumentException(what + " is not an environment variable name: " + s);
        }
        return s;
    }
}
