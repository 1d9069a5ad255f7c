package org.shmem4j.coverage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.shmem4j.coverage.SpecRoutines.Api;
import org.shmem4j.coverage.SpecRoutines.Routine;

/**
 * The pure checking logic of the binding coverage guard, separate from class scanning and files so
 * its failure modes can be unit-tested with small fake inputs.
 */
public final class CoverageChecker {

    public enum Kind { NOT_YET, UNSUPPORTED }

    /**
     * One line of binding-status.txt. The pattern may use {@code *} and {@code ?} and the same
     * {@code TYPENAME}/{@code SIZE} placeholders as {@code @Binds}, so a line can mirror the
     * annotation that will replace it.
     */
    public record StatusLine(String glob, Kind kind, String reason, int lineNo) {
        Pattern regex() {
            var sb = new StringBuilder();
            for (int i = 0; i < glob.length(); i++) {
                if (glob.startsWith("TYPENAME", i)) {
                    sb.append("(?:").append(String.join("|", new TreeSet<>(SpecRoutines.TYPENAMES))).append(')');
                    i += "TYPENAME".length() - 1;
                } else if (glob.startsWith("SIZE", i)) {
                    sb.append("(?:").append(String.join("|", SpecRoutines.SIZES)).append(')');
                    i += "SIZE".length() - 1;
                } else {
                    char c = glob.charAt(i);
                    sb.append(switch (c) {
                        case '*' -> "[A-Za-z0-9_]*";
                        case '?' -> "[A-Za-z0-9_]";
                        default -> Pattern.quote(String.valueOf(c));
                    });
                }
            }
            return Pattern.compile(sb.toString());
        }

        @Override public String toString() {
            return "binding-status.txt:" + lineNo + ": " + glob + " " + kind.name().toLowerCase().replace('_', '-');
        }
    }

    /** A @Binds value and where it was found (for error messages). */
    public record Binding(String name, String where) {}

    public record Result(Map<String, List<String>> unbound, List<String> staleStatus,
                         List<String> unknownBinds, Set<String> bound) {
        public boolean ok() { return unbound.isEmpty() && staleStatus.isEmpty() && unknownBinds.isEmpty(); }

        public String report() {
            var sb = new StringBuilder();
            if (!unbound.isEmpty()) {
                int total = unbound.values().stream().mapToInt(List::size).sum();
                sb.append(total).append(" spec routine(s), current or deprecated, neither bound by @Binds nor listed in binding-status.txt:\n");
                unbound.forEach((family, names) -> sb.append("  ").append(family).append(" (").append(names.size())
                        .append("): ").append(String.join(" ", names)).append('\n'));
            }
            if (!staleStatus.isEmpty()) {
                sb.append(staleStatus.size()).append(" stale binding-status.txt line(s) matching no unbound routine"
                        + " (the routines got bound: delete the line):\n");
                staleStatus.forEach(s -> sb.append("  ").append(s).append('\n'));
            }
            if (!unknownBinds.isEmpty()) {
                sb.append(unknownBinds.size()).append(" @Binds name(s) that are not OpenSHMEM 1.6 routines:\n");
                unknownBinds.forEach(s -> sb.append("  ").append(s).append('\n'));
            }
            return sb.toString();
        }
    }

    private CoverageChecker() {}

    public static List<StatusLine> parseStatus(List<String> lines) {
        var out = new ArrayList<StatusLine>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            String[] f = line.split("\\s+", 3);
            if (f.length < 3) throw new IllegalArgumentException("binding-status.txt:" + (i + 1) + ": need <glob> <kind> <reason>: " + line);
            Kind kind = switch (f[1]) {
                case "not-yet" -> Kind.NOT_YET;
                case "unsupported" -> Kind.UNSUPPORTED;
                default -> throw new IllegalArgumentException("binding-status.txt:" + (i + 1) + ": kind must be not-yet or unsupported: " + f[1]);
            };
            out.add(new StatusLine(f[0], kind, f[2], i + 1));
        }
        return out;
    }

    /**
     * Expands one @Binds value to the spec routines it claims. TYPENAME/SIZE expand to exactly the
     * current C names the spec's tables produce for that routine, minus names an {@code unsupported}
     * line excludes (long double); a name without placeholders stands for itself. An empty result
     * means the value names no routine.
     */
    public static Set<String> expand(String value, Set<String> currentC, List<StatusLine> unsupported) {
        if (!value.contains("TYPENAME") && !value.contains("SIZE")) return Set.of(value);
        Set<String> out = new TreeSet<>();
        List<String> typenames = value.contains("TYPENAME") ? List.copyOf(SpecRoutines.TYPENAMES) : List.of("");
        List<String> sizes = value.contains("SIZE") ? SpecRoutines.SIZES : List.of("");
        for (String t : typenames)
            for (String s : sizes) {
                String name = value.replace("TYPENAME", t).replace("SIZE", s);
                if (currentC.contains(name) && unsupported.stream().noneMatch(u -> u.regex().matcher(name).matches()))
                    out.add(name);
            }
        return out;
    }

    public static Result check(List<Routine> spec, Collection<Binding> binds, List<StatusLine> status) {
        Set<String> currentC = SpecRoutines.names(spec, Api.C, true);
        // Deprecated routines count too (the spec still requires them); TYPENAME and SIZE expand
        // over current names only, so a current binding never claims a deprecated routine.
        Set<String> requiredC = SpecRoutines.names(spec, Api.C, false);
        Set<String> known = spec.stream().map(Routine::name).collect(Collectors.toSet());
        List<StatusLine> unsupported = status.stream().filter(s -> s.kind() == Kind.UNSUPPORTED).toList();

        Set<String> bound = new TreeSet<>();
        List<String> unknown = new ArrayList<>();
        for (Binding b : binds) {
            Set<String> names = expand(b.name(), currentC, unsupported);
            if (names.isEmpty()) unknown.add(b.name() + " (expands to no current routine) at " + b.where());
            for (String n : names) {
                if (known.contains(n)) bound.add(n);
                else unknown.add(n + " at " + b.where());
            }
        }

        List<String> unbound = requiredC.stream().filter(n -> !bound.contains(n)).toList();
        Map<String, String> family = new LinkedHashMap<>();
        spec.stream().filter(r -> r.api() == Api.C).forEach(r -> family.put(r.name(), r.family()));

        Map<String, List<String>> missing = new TreeMap<>();
        List<String> stale = new ArrayList<>();
        List<Pattern> patterns = status.stream().map(StatusLine::regex).toList();
        boolean[] used = new boolean[status.size()];
        for (String n : unbound) {
            boolean covered = false;
            for (int i = 0; i < patterns.size(); i++)
                if (patterns.get(i).matcher(n).matches()) { used[i] = true; covered = true; }
            if (!covered) missing.computeIfAbsent(family.get(n), k -> new ArrayList<>()).add(n);
        }
        for (int i = 0; i < status.size(); i++)
            if (!used[i]) stale.add(status.get(i).toString());
        return new Result(missing, stale, unknown, bound);
    }
}
