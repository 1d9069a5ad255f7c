package org.shmem4j.coverage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Extracts every C routine name of the OpenSHMEM 1.6 C API from the markdown conversion of the spec.
 *
 * <p>Sources: the C11 and C/C++ SYNOPSIS code blocks of sections 9 and 10.1 (placeholders
 * {@code TYPENAME}/{@code SIZE} expanded with the table or list named by the "where ..." sentence
 * after each block) and the C/C++ rows of the Annex F deprecation table (for routines that no longer
 * have a synopsis, like {@code _my_pe}). A routine is deprecated when its block, or the "where"
 * clause that produced its TYPENAME, lies in a "deprecation start/end" region, or Annex F lists it.
 *
 * <p>Self-contained on purpose (JDK only, one file) so it runs from source:
 * {@value #COMMAND}
 */
public final class SpecRoutines {

    public static final String COMMAND =
            "java core/src/test/java/org/shmem4j/coverage/SpecRoutines.java"
                    + " ../shared/reference/openshmem-1.6-spec.md"
                    + " core/src/test/resources/org/shmem4j/spec-routines.txt";

    /** Every TYPENAME a spec table may use; checked against the tables so it cannot rot. */
    public static final Set<String> TYPENAMES = Set.of(
            "float", "double", "longdouble", "char", "schar", "short", "int", "long", "longlong",
            "uchar", "ushort", "uint", "ulong", "ulonglong", "int8", "int16", "int32", "int64",
            "uint8", "uint16", "uint32", "uint64", "size", "ptrdiff", "complexd", "complexf");

    public static final List<String> SIZES = List.of("8", "16", "32", "64", "128");

    /** Which name set a routine belongs to: explicit C/C++ names, or the C11 synopsis (_Generic) names. */
    public enum Api {
        C, C11;

        public String tag() { return this == C ? "c" : "c11"; }

        public static Api of(String tag) {
            return switch (tag) {
                case "c" -> C;
                case "c11" -> C11;
                default -> throw new IllegalArgumentException("api must be c or c11: " + tag);
            };
        }
    }

    public record Routine(String name, String family, boolean deprecated, Api api) {
        public String status() { return deprecated ? "deprecated" : "current"; }

        public String line() { return name + " " + family + " " + status() + " " + api.tag(); }
    }

    /** One row of a TYPE/TYPENAME table; {@code ops} is only filled for the reduction tables. */
    public record TypeRow(String type, String typename, Set<String> ops) {}

    public record TypeTable(int number, String caption, List<TypeRow> rows) {}

    public record Extraction(List<Routine> routines, Map<Integer, TypeTable> tables, List<String> notes) {}

    // Family by the spec section a synopsis sits in; longest prefix wins.
    private static final Map<String, String> FAMILY_BY_SECTION = new LinkedHashMap<>();
    static {
        FAMILY_BY_SECTION.put("9.1", "setup");
        FAMILY_BY_SECTION.put("9.2", "thread");
        FAMILY_BY_SECTION.put("9.3", "mem");
        FAMILY_BY_SECTION.put("9.4", "team");
        FAMILY_BY_SECTION.put("9.5", "ctx");
        FAMILY_BY_SECTION.put("9.6", "rma");
        FAMILY_BY_SECTION.put("9.6.2", "rma_nbi");
        FAMILY_BY_SECTION.put("9.7", "amo");
        FAMILY_BY_SECTION.put("9.7.2", "amo_nbi");
        FAMILY_BY_SECTION.put("9.8", "signal");
        FAMILY_BY_SECTION.put("9.9", "session");
        FAMILY_BY_SECTION.put("9.10", "coll");
        FAMILY_BY_SECTION.put("9.10.9", "reduce");
        FAMILY_BY_SECTION.put("9.10.10", "scan");
        FAMILY_BY_SECTION.put("9.11", "wait");
        FAMILY_BY_SECTION.put("9.12", "order");
        FAMILY_BY_SECTION.put("9.13", "lock");
        FAMILY_BY_SECTION.put("10.1", "profiling");
    }

    /**
     * Known defects of the markdown conversion; each must match exactly once per run, so a fixed
     * conversion makes the extractor fail instead of silently carrying a stale correction.
     */
    private static final Map<String, String> DECLARATION_ERRATA = Map.of(
            // 9.3.6 SHMEM_CALLOC: the conversion printed the calloc prototype under the name shmem_malloc.
            "void *shmem_malloc(size_t count, size_t size)", "shmem_calloc");
    private static final Map<String, String> ANNEX_ERRATA = Map.of(
            // Annex F row reads "shm_malloc"; F.2.4 and every SHMEM release name it shmalloc.
            "shm_malloc", "shmalloc");

    private static final Pattern TABLE_HEADER = Pattern.compile("^<i>TYPE</i>\\s+<i>TYPENAME</i>.*");
    private static final Pattern TABLE_CAPTION = Pattern.compile("^Table (\\d+):\\s*(.*)$");
    private static final Pattern HEADING = Pattern.compile("^(\\d+(?:\\.\\d+)*|[A-F](?:\\.\\d+)+)\\s+\\S.*");
    private static final Pattern ANNEX = Pattern.compile("^#+\\s*Annex\\s+([A-F])\\b.*");
    private static final Pattern DECL = Pattern.compile(
            "^(?:_Noreturn\\s+)?(?:const\\s+)?[A-Za-z_][A-Za-z0-9_]*(?:\\s+[A-Za-z_][A-Za-z0-9_]*)*[\\s*]+"
                    + "([A-Za-z_][A-Za-z0-9_]*)\\s*\\(([^()]*)\\)$");
    private static final Pattern TABLE_REF = Pattern.compile("Table (\\d+)");
    private static final Pattern BRACE_LIST = Pattern.compile("\\{([^}]*)}");
    private static final Pattern OPERATION = Pattern.compile("for the (\\w+) operation");
    private static final Pattern SIZE_LIST = Pattern.compile("SIZE\\*? is one of ([0-9,\\s]+)");
    private static final Pattern ANNEX_ENTRY = Pattern.compile(
            "(C11|C/C\\+\\+):\\s*(?:<a[^>]*>)?\\s*([^<]+?)\\s*(?:</a>|</i>)");
    private static final Pattern ANNEX_NAME = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)(?:\\{([0-9,\\s]+)})?$");

    private SpecRoutines() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: " + COMMAND);
            System.exit(2);
        }
        Extraction x = extract(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
        Files.writeString(Path.of(args[1]), render(x.routines()), StandardCharsets.UTF_8);
        x.notes().forEach(n -> System.out.println("note: " + n));
        System.out.println(summary(x));
    }

    /** The committed file's exact content; the coverage test compares it byte for byte. */
    public static String render(List<Routine> routines) {
        var sb = new StringBuilder();
        sb.append("# OpenSHMEM 1.6 C API routine names, extracted from the spec by org.shmem4j.coverage.SpecRoutines.\n");
        sb.append("# Regenerate (from the worktree root, JDK 25): ").append(COMMAND).append('\n');
        sb.append("# Do not edit: BindingCoverageTest re-extracts this list from the spec and fails on any difference.\n");
        sb.append("# Format: <name> <family> <status> <api>\n");
        sb.append("#   status: current | deprecated (deprecation region of section 9, or Annex F)\n");
        sb.append("#   api:    c   = explicit C/C++ name (TYPENAME/SIZE expanded from the spec's tables)\n");
        sb.append("#           c11 = name from a C11 synopsis (the _Generic type-generic interface)\n");
        for (Api api : Api.values()) {
            sb.append("#\n# ---- api ").append(api.tag()).append(" ----\n");
            routines.stream().filter(r -> r.api() == api)
                    .sorted(Comparator.comparing(Routine::name))
                    .forEach(r -> sb.append(r.line()).append('\n'));
        }
        return sb.toString();
    }

    /** Parses the committed file back (comments and blank lines skipped). */
    public static List<Routine> parse(List<String> lines) {
        var out = new ArrayList<Routine>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            String[] f = line.split("\\s+");
            if (f.length != 4 || !(f[2].equals("current") || f[2].equals("deprecated")))
                throw new IllegalArgumentException("bad spec-routines line: " + raw);
            out.add(new Routine(f[0], f[1], f[2].equals("deprecated"), Api.of(f[3])));
        }
        return out;
    }

    public static String summary(Extraction x) {
        var sb = new StringBuilder("type tables:\n");
        x.tables().values().forEach(t -> sb.append(String.format("  Table %-2d %2d TYPENAMEs  %s%n",
                t.number(), t.rows().size(), t.caption())));
        for (Api api : Api.values()) {
            sb.append("api ").append(api.tag()).append(" (family: current / deprecated):\n");
            Map<String, int[]> counts = new TreeMap<>();
            for (Routine r : x.routines()) {
                if (r.api() != api) continue;
                counts.computeIfAbsent(r.family(), k -> new int[2])[r.deprecated() ? 1 : 0]++;
            }
            int cur = 0, dep = 0;
            for (var e : counts.entrySet()) {
                sb.append(String.format("  %-10s %5d / %4d%n", e.getKey(), e.getValue()[0], e.getValue()[1]));
                cur += e.getValue()[0];
                dep += e.getValue()[1];
            }
            sb.append(String.format("  %-10s %5d / %4d%n", "TOTAL", cur, dep));
        }
        return sb.toString();
    }

    public static Extraction extract(String specText) {
        // The conversion put Cyrillic look-alikes into some identifiers ("shmем_wait").
        String text = specText.replace('\u043c', 'm').replace('\u0435', 'e').replace('\u043e', 'o')
                .replace('\u0430', 'a').replace('\u0441', 'c').replace('\u0440', 'p');
        List<String> lines = text.lines().toList();
        var notes = new ArrayList<String>();
        Map<Integer, TypeTable> tables = readTables(lines);
        for (TypeTable t : tables.values())
            for (TypeRow r : t.rows())
                if (!TYPENAMES.contains(r.typename()))
                    throw new IllegalStateException("Table " + t.number() + " has unknown TYPENAME " + r.typename());

        // (api, name) -> routine; merging keeps "current" if any source says current.
        Map<String, Routine> found = new TreeMap<>();
        Set<String> erratumHits = new LinkedHashSet<>();
        String section = "";
        boolean deprecated = false, inSynopsis = false;
        Api lang = null;

        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```")) {
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).strip().startsWith("```")) end++;
                if (inSynopsis && lang != null && inApiSection(section)) {
                    String body = String.join(" ", lines.subList(i + 1, Math.min(end, lines.size())));
                    List<WhereClause> where = whereClauses(lines, end + 1, deprecated, tables);
                    for (String decl : body.split(";")) {
                        String d = decl.strip().replaceAll("\\s+", " ");
                        if (d.isEmpty() || d.startsWith("typedef") || d.startsWith("}")) continue;
                        Matcher m = DECL.matcher(d);
                        if (!m.matches())
                            throw new IllegalStateException("line " + (i + 1) + ": not a prototype: " + d);
                        String name = m.group(1);
                        String fixed = DECLARATION_ERRATA.get(d);
                        if (fixed != null) {
                            notes.add("line " + (i + 1) + ": erratum " + d + " -> " + fixed);
                            erratumHits.add(d);
                            name = fixed;
                        }
                        if (lang == Api.C11 && name.startsWith("shmem_ctx_")) {
                            // C11 generics take the context as an optional first argument, never in the name.
                            String generic = "shmem_" + name.substring("shmem_ctx_".length());
                            notes.add("line " + (i + 1) + ": C11 synopsis names " + name + "; using " + generic);
                            name = generic;
                        }
                        if (lang == Api.C && name.contains("_SIZE")) {
                            // Sized names glue SIZE to the operation (shmem_iput8, shmem_put8_nbi,
                            // shmem_put8_signal); the conversion inserted "_" in some synopses.
                            String glued = name.replace("_SIZE", "SIZE");
                            notes.add("line " + (i + 1) + ": synopsis names " + name + "; using " + glued);
                            name = glued;
                        }
                        for (var e : expand(name, lang, deprecated, where, i + 1).entrySet())
                            add(found, new Routine(e.getKey(), familyOf(section), e.getValue(), lang));
                    }
                }
                i = end;
                continue;
            }
            deprecated = updateDeprecation(line, deprecated);
            String plain = line.replaceAll("<[^>]+>", "").replaceAll("[#*\\\\]", "").strip();
            Matcher annex = ANNEX.matcher(line);
            if (annex.matches()) section = annex.group(1);
            else if ((line.startsWith("#") || line.startsWith("**"))) {
                Matcher h = HEADING.matcher(plain);
                if (h.matches()) {
                    section = h.group(1);
                    // Regions never span routine sections; the conversion lost one "end" marker (9.10.3).
                    if (deprecated) notes.add("line " + (i + 1) + ": unterminated deprecation region closed at " + plain);
                    deprecated = false;
                }
            }
            String marker = plain.replaceAll("\\s", "");
            if (marker.startsWith("SYNOPSIS")) {
                inSynopsis = true;
                lang = null;
                marker = marker.substring("SYNOPSIS".length());
            }
            if (marker.startsWith("DESCRIPTION") || marker.startsWith("EXAMPLES")) {
                inSynopsis = false;
                lang = null;
            }
            if (marker.equals("C11:")) lang = Api.C11;
            else if (marker.equals("C/C++:")) lang = Api.C;
        }
        for (String d : DECLARATION_ERRATA.keySet())
            if (!erratumHits.contains(d)) throw new IllegalStateException("stale erratum, not in spec: " + d);

        annexF(lines, found, notes);
        return new Extraction(List.copyOf(found.values()), tables, notes);
    }

    private static boolean inApiSection(String section) {
        return section.startsWith("9.") || section.equals("10.1") || section.startsWith("10.1.");
    }

    private static String familyOf(String section) {
        String best = null;
        for (String prefix : FAMILY_BY_SECTION.keySet())
            if ((section.equals(prefix) || section.startsWith(prefix + "."))
                    && (best == null || prefix.length() > best.length()))
                best = prefix;
        if (best == null) throw new IllegalStateException("no family for section " + section);
        return FAMILY_BY_SECTION.get(best);
    }

    private static boolean updateDeprecation(String line, boolean current) {
        String l = line.toLowerCase();
        int start = l.lastIndexOf("deprecation start"), end = l.lastIndexOf("deprecation end");
        if (start < 0 && end < 0) return current;
        return start > end;
    }

    private static void add(Map<String, Routine> found, Routine r) {
        found.merge(r.api().tag() + " " + r.name(), r, (a, b) -> a.deprecated() && !b.deprecated() ? b : a);
    }

    /** A "where TYPE/SIZE is one of ..." sentence after a synopsis block. */
    private record WhereClause(List<String> typenames, List<String> sizes, boolean deprecated) {}

    private static List<WhereClause> whereClauses(List<String> lines, int from, boolean deprecated,
                                                  Map<Integer, TypeTable> tables) {
        var out = new ArrayList<WhereClause>();
        for (int i = from; i < lines.size(); i++) {
            String line = lines.get(i);
            String plain = line.replaceAll("<[^>]+>", "").replace("*", "").replace("\\", "").strip();
            String marker = plain.replaceAll("[#\\s]", "");
            if (line.strip().startsWith("```") || marker.startsWith("SYNOPSIS") || marker.startsWith("DESCRIPTION")
                    || marker.equals("C11:") || marker.equals("C/C++:") || HEADING.matcher(plain.replace("#", "").strip()).matches())
                break;
            deprecated = updateDeprecation(line, deprecated);
            if (!(plain.startsWith("where ") || plain.startsWith("or "))) continue;
            Matcher size = SIZE_LIST.matcher(plain);
            if (size.find()) {
                out.add(new WhereClause(List.of(), splitList(size.group(1)), deprecated));
                continue;
            }
            Matcher tref = TABLE_REF.matcher(plain);
            TypeTable table = tref.find() ? tables.get(Integer.parseInt(tref.group(1))) : null;
            if (table == null) continue; // C11 clauses name types, not TYPENAMEs
            Matcher brace = BRACE_LIST.matcher(plain);
            Matcher op = OPERATION.matcher(plain);
            List<String> typenames;
            if (brace.find()) {
                typenames = new ArrayList<>();
                for (String type : splitList(brace.group(1))) {
                    TypeRow row = table.rows().stream().filter(r -> r.type().equals(type)).findFirst()
                            .orElseThrow(() -> new IllegalStateException("type " + type + " not in Table " + table.number()));
                    typenames.add(row.typename());
                }
            } else if (op.find()) {
                String operation = op.group(1);
                typenames = table.rows().stream().filter(r -> r.ops().contains(operation)).map(TypeRow::typename).toList();
            } else {
                typenames = table.rows().stream().map(TypeRow::typename).toList();
            }
            if (typenames.isEmpty()) throw new IllegalStateException("empty TYPENAME set: " + plain);
            out.add(new WhereClause(typenames, List.of(), deprecated));
        }
        return out;
    }

    private static List<String> splitList(String s) {
        return java.util.Arrays.stream(s.split(",")).map(String::strip).filter(x -> !x.isEmpty()).toList();
    }

    /** Name -> deprecated, for every expansion of the placeholders in one declared name. */
    private static Map<String, Boolean> expand(String name, Api lang, boolean blockDeprecated,
                                               List<WhereClause> where, int lineNo) {
        Map<String, Boolean> out = new TreeMap<>();
        if (lang == Api.C11 || !(name.contains("TYPENAME") || name.contains("SIZE"))) {
            out.put(name, blockDeprecated);
            return out;
        }
        boolean any = false;
        for (WhereClause w : where) {
            List<String> values = name.contains("TYPENAME") ? w.typenames() : w.sizes();
            String placeholder = name.contains("TYPENAME") ? "TYPENAME" : "SIZE";
            for (String v : values) {
                any = true;
                out.merge(name.replace(placeholder, v), blockDeprecated || w.deprecated(), (a, b) -> a && b);
            }
        }
        if (!any) throw new IllegalStateException("line " + lineNo + ": no type list for " + name);
        return out;
    }

    private static Map<Integer, TypeTable> readTables(List<String> lines) {
        Map<Integer, TypeTable> tables = new TreeMap<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!TABLE_HEADER.matcher(lines.get(i).strip()).matches()) continue;
            var rows = new ArrayList<TypeRow>();
            int j = i + 1;
            for (; j < lines.size() && !lines.get(j).isBlank(); j++) {
                String[] cols = lines.get(j).split("\t");
                Set<String> ops = new LinkedHashSet<>();
                for (int c = 2; c < cols.length; c++) ops.addAll(splitList(cols[c]));
                rows.add(new TypeRow(cols[0].strip(), cols[1].strip(), ops));
            }
            while (j < lines.size() && lines.get(j).isBlank()) j++;
            Matcher cap = TABLE_CAPTION.matcher(j < lines.size() ? lines.get(j).strip() : "");
            if (!cap.matches()) throw new IllegalStateException("type table at line " + (i + 1) + " has no caption");
            int n = Integer.parseInt(cap.group(1));
            if (tables.put(n, new TypeTable(n, cap.group(2).strip(), List.copyOf(rows))) != null)
                throw new IllegalStateException("Table " + n + " twice");
            i = j;
        }
        return tables;
    }

    /**
     * Annex F's deprecation table: routines without a synopsis are added (family taken from the
     * routine that replaces them, else "legacy"); routines with a synopsis must already be deprecated.
     */
    private static void annexF(List<String> lines, Map<String, Routine> found, List<String> notes) {
        boolean inTable = false;
        Set<String> hits = new LinkedHashSet<>();
        for (String line : lines) {
            String plain = line.replaceAll("[#*\\\\]", "").strip();
            if (ANNEX.matcher(line).matches() && line.contains("Annex F")) inTable = true;
            else if (inTable && plain.startsWith("F.2 ")) break;
            if (!inTable || !line.contains("\t")) continue;
            String[] cols = line.split("\t");
            if (cols.length < 4) continue;
            String replacement = cols[3].replaceAll("<[^>]+>", " ").strip().split("\\s+")[0];
            Matcher m = ANNEX_ENTRY.matcher(cols[0]);
            while (m.find()) {
                Api api = m.group(1).equals("C11") ? Api.C11 : Api.C;
                String entry = m.group(2).strip();
                if (entry.contains("(")) continue; // a type variant of a current generic, e.g. shmem_test(short ...)
                Matcher nm = ANNEX_NAME.matcher(entry);
                if (!nm.find()) throw new IllegalStateException("Annex F entry not understood: " + entry);
                List<String> names = nm.group(2) == null ? List.of(nm.group(1))
                        : splitList(nm.group(2)).stream().map(s -> nm.group(1) + s).toList();
                for (String name : names) {
                    if (ANNEX_ERRATA.containsKey(name)) {
                        notes.add("Annex F erratum " + name + " -> " + ANNEX_ERRATA.get(name));
                        hits.add(name);
                        name = ANNEX_ERRATA.get(name);
                    }
                    annexEntry(api, name, replacement, found);
                }
            }
        }
        for (String e : ANNEX_ERRATA.keySet())
            if (!hits.contains(e)) throw new IllegalStateException("stale Annex F erratum: " + e);
    }

    private static void annexEntry(Api api, String name, String replacement, Map<String, Routine> found) {
        String prefix = api.tag() + " ";
        if (name.contains("TYPENAME")) {
            Pattern p = Pattern.compile(Pattern.quote(name).replace("TYPENAME", "\\E([a-z0-9]+)\\Q"));
            List<Routine> matches = found.values().stream().filter(r -> r.api() == api)
                    .filter(r -> { Matcher m = p.matcher(r.name()); return m.matches() && TYPENAMES.contains(m.group(1)); })
                    .toList();
            if (matches.isEmpty() || matches.stream().anyMatch(r -> !r.deprecated()))
                throw new IllegalStateException("Annex F lists " + name + " but the synopses give " + matches);
            return;
        }
        Routine known = found.get(prefix + name);
        if (known != null) {
            if (!known.deprecated())
                throw new IllegalStateException("Annex F deprecates " + name + " but its synopsis is current");
            return;
        }
        Routine repl = found.get("c " + replacement);
        found.put(prefix + name, new Routine(name, repl == null ? "legacy" : repl.family(), true, api));
    }

    /** Convenience for callers holding the routines: names of one api set, optionally only current ones. */
    public static Set<String> names(List<Routine> routines, Api api, boolean currentOnly) {
        return routines.stream().filter(r -> r.api() == api && (!currentOnly || !r.deprecated()))
                .map(Routine::name).collect(Collectors.toCollection(java.util.TreeSet::new));
    }
}
