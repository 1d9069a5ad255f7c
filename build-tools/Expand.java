/*
 * Expands the typed-code templates of shmem4j: one template stands for a family of methods or
 * classes that differ only in the Java carrier type (or the transfer size), so the family is
 * written once and generated, never copied by hand.
 *
 * Usage: java Expand.java TEMPLATE_DIR OUTPUT_DIR
 *
 * Every file TEMPLATE_DIR/**.java.in becomes OUTPUT_DIR/**.java. Inside a template:
 *   //# for T in long int ...      repeat the lines up to the matching //# end once per type
 *   //# for S in 8 16 32 64 128    repeat once per transfer size in bits
 *   //# end
 * A template whose file name contains $T$ is written once per type named on its first line,
 * "//# file-per-type long int ...". Substitutions (for the current T or S):
 *   $t$ long   $T$ Long   $Box$ Long   $LAYOUT$ JAVA_LONG   $BYTES$ 8   $BITS$ 64
 *   $ctypes$   the C TYPENAMEs of the spec's RMA table carried by this Java type
 *   $S$ 64     $SBYTES$ 8   (inside a size loop)
 *   $each:shmem_%_p shmem_ctx_%_p$   "shmem_long_p", "shmem_longlong_p", ..., "shmem_ctx_long_p", ...:
 *                      each space-separated pattern once per C TYPENAME of the current type, quoted
 *                      and comma-separated (for @Binds lists; empty for a type with no C name)
 *   $each@amo:...$     the same over another of the spec's type tables (amo, ext, bit, dep; rma is the default)
 * Blocks nest (a size loop inside a type loop and vice versa).
 */
import java.io.IOException;
import java.nio.file.*;
import java.util.*;
import java.util.stream.Stream;

public class Expand {
    record Carrier(String t, String T, String box, String layout, int bytes, String ctypes) {
        /** The C TYPENAMEs of the RMA table carried by this type (none for the Java-only char). */
        List<String> cnames() {
            return ctypes.startsWith("(") ? List.of() : List.of(ctypes.split(",\\s*"));
        }

        /**
         * The C TYPENAMEs of one of the spec's type tables carried by this type: "rma" (table 5),
         * "amo" (standard AMOs, table 6, also the point-to-point synchronization types), "ext"
         * (extended AMOs, table 7), "bit" (bitwise AMOs, table 8), and the reduction groups of
         * table 10: "bitred" (AND/OR/XOR), "sred" (MAX/MIN on signed and real types), "ured"
         * (MAX/MIN on unsigned types: the Java methods umaxReduce/uminReduce); SUM/PROD use "rma";
         * "dep": the C types of the deprecated routines (table 11's TYPE_OP_to_all, the 1.4 AMO and
         * wait names), where Java long carries C long and long long; "plain": the empty name for
         * long only, for C names without a TYPENAME that take a long ("shmem_wait%").
         */
        List<String> cnames(String table) {
            return switch (table) {
                case "rma" -> cnames();
                case "amo" -> switch (t) {
                    case "int" -> List.of("int", "uint", "int32", "uint32");
                    case "long" -> List.of("long", "longlong", "ulong", "ulonglong", "int64", "uint64", "size", "ptrdiff");
                    default -> List.of();
                };
                case "ext" -> switch (t) {
                    case "float", "double" -> List.of(t);
                    default -> cnames("amo");
                };
                case "bitred" -> switch (t) {
                    case "byte" -> List.of("uchar", "int8", "uint8");
                    case "short" -> List.of("ushort", "int16", "uint16");
                    case "int" -> List.of("uint", "int32", "uint32");
                    case "long" -> List.of("ulong", "ulonglong", "int64", "uint64", "size");
                    default -> List.of();
                };
                case "sred" -> switch (t) {
                    case "byte" -> List.of("char", "schar", "int8");
                    case "short" -> List.of("short", "int16");
                    case "int" -> List.of("int", "int32");
                    case "long" -> List.of("long", "longlong", "int64", "ptrdiff");
                    case "float", "double" -> List.of(t);
                    default -> List.of();
                };
                case "ured" -> switch (t) {
                    case "byte" -> List.of("uchar", "uint8");
                    case "short" -> List.of("ushort", "uint16");
                    case "int" -> List.of("uint", "uint32");
                    case "long" -> List.of("ulong", "ulonglong", "uint64", "size");
                    default -> List.of();
                };
                case "dep" -> switch (t) {
                    case "short", "int", "float", "double" -> List.of(t);
                    case "long" -> List.of("long", "longlong");
                    default -> List.of();
                };
                case "plain" -> t.equals("long") ? List.of("") : List.of(); // untyped C names of long (shmem_wait)
                case "bit" -> switch (t) {
                    case "int" -> List.of("uint", "int32", "uint32");
                    case "long" -> List.of("ulong", "ulonglong", "int64", "uint64");
                    default -> List.of();
                };
                default -> throw new IllegalStateException("unknown type table " + table);
            };
        }
    }

    static final Map<String, Carrier> CARRIERS = new LinkedHashMap<>();
    static {
        add("byte", "Byte", "Byte", "JAVA_BYTE", 1, "char, schar, uchar, int8, uint8");
        add("short", "Short", "Short", "JAVA_SHORT", 2, "short, ushort, int16, uint16");
        add("int", "Int", "Integer", "JAVA_INT", 4, "int, uint, int32, uint32");
        add("long", "Long", "Long", "JAVA_LONG", 8, "long, longlong, ulong, ulonglong, int64, uint64, size, ptrdiff");
        add("float", "Float", "Float", "JAVA_FLOAT", 4, "float");
        add("double", "Double", "Double", "JAVA_DOUBLE", 8, "double");
        add("char", "Char", "Character", "JAVA_CHAR", 2, "(none: a Java extension for UTF-16 data; C ushort/uint16 travel as short)");
    }

    static void add(String t, String T, String box, String layout, int bytes, String ctypes) {
        CARRIERS.put(t, new Carrier(t, T, box, layout, bytes, ctypes));
    }

    public static void main(String[] args) throws IOException {
        Path in = Path.of(args[0]), out = Path.of(args[1]);
        List<Path> templates;
        if (!Files.isDirectory(in)) return; // a module without templates
        try (Stream<Path> s = Files.walk(in)) {
            templates = s.filter(p -> p.toString().endsWith(".java.in")).sorted().toList();
        }
        for (Path template : templates) {
            List<String> lines = Files.readAllLines(template);
            String rel = in.relativize(template).toString().replaceFirst("\\.in$", "");
            String header = "// GENERATED from " + in.relativize(template) + " by build-tools/Expand.java: edit the template.";
            if (rel.contains("$T$")) {
                String first = lines.get(0).trim();
                if (!first.startsWith("//# file-per-type")) throw new IllegalStateException(template + ": first line must be //# file-per-type ...");
                for (String t : first.substring("//# file-per-type".length()).trim().split("\\s+")) {
                    Map<String, String> vars = typeVars(carrier(t, template));
                    write(out.resolve(subst(rel, vars)), header, expand(lines.subList(1, lines.size()), vars, template));
                }
            } else {
                write(out.resolve(rel), header, expand(lines, Map.of(), template));
            }
        }
    }

    static Carrier carrier(String t, Path where) {
        Carrier c = CARRIERS.get(t);
        if (c == null) throw new IllegalStateException(where + ": unknown type " + t);
        return c;
    }

    static Map<String, String> typeVars(Carrier c) {
        Map<String, String> v = new HashMap<>();
        v.put("$t$", c.t()); v.put("$T$", c.T()); v.put("$Box$", c.box()); v.put("$LAYOUT$", c.layout());
        v.put("$BYTES$", Integer.toString(c.bytes())); v.put("$BITS$", Integer.toString(c.bytes() * 8));
        v.put("$ctypes$", c.ctypes());
        return v;
    }

    static List<String> expand(List<String> lines, Map<String, String> outer, Path where) {
        List<String> result = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String trimmed = lines.get(i).trim();
            if (trimmed.startsWith("//# for ")) {
                int end = matchingEnd(lines, i, where);
                String[] head = trimmed.substring("//# for ".length()).trim().split("\\s+");
                if (head.length < 3 || !head[1].equals("in")) throw new IllegalStateException(where + ":" + (i + 1) + ": expected //# for X in ...");
                List<String> body = lines.subList(i + 1, end);
                for (int k = 2; k < head.length; k++) {
                    Map<String, String> vars = new HashMap<>(outer);
                    if (head[0].equals("T")) {
                        vars.putAll(typeVars(carrier(head[k], where)));
                    } else if (head[0].equals("S")) {
                        int bits = Integer.parseInt(head[k]);
                        vars.put("$S$", head[k]); vars.put("$SBYTES$", Integer.toString(bits / 8));
                    } else {
                        throw new IllegalStateException(where + ":" + (i + 1) + ": loop variable must be T or S");
                    }
                    result.addAll(expand(body, vars, where));
                }
                i = end;
            } else if (trimmed.startsWith("//# end")) {
                throw new IllegalStateException(where + ":" + (i + 1) + ": //# end without //# for");
            } else {
                result.add(subst(lines.get(i), outer));
            }
        }
        return result;
    }

    static int matchingEnd(List<String> lines, int start, Path where) {
        int depth = 0;
        for (int j = start; j < lines.size(); j++) {
            String t = lines.get(j).trim();
            if (t.startsWith("//# for ")) depth++;
            else if (t.startsWith("//# end") && --depth == 0) return j;
        }
        throw new IllegalStateException(where + ":" + (start + 1) + ": //# for without //# end");
    }

    static final java.util.regex.Pattern EACH = java.util.regex.Pattern.compile("\\$each(?:@(\\w+))?:([^$]+)\\$");

    static String subst(String s, Map<String, String> vars) {
        if (s.indexOf('$') < 0) return s;
        String type = vars.get("$t$");
        if (type != null) {
            Carrier c = CARRIERS.get(type);
            s = EACH.matcher(s).replaceAll(m -> {
                List<String> names = c.cnames(m.group(1) == null ? "rma" : m.group(1));
                return java.util.regex.Matcher.quoteReplacement(String.join(", ",
                        Arrays.stream(m.group(2).trim().split("\\s+"))
                                .flatMap(pattern -> names.stream().map(n -> "\"" + pattern.replace("%", n) + "\""))
                                .toList()));
            });
        }
        for (Map.Entry<String, String> e : vars.entrySet()) s = s.replace(e.getKey(), e.getValue());
        return s;
    }

    static void write(Path file, String header, List<String> lines) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder sb = new StringBuilder(header).append('\n');
        for (String l : lines) sb.append(l).append('\n');
        String text = sb.toString();
        // Leave unchanged files alone so incremental compilation stays incremental.
        if (Files.exists(file) && Files.readString(file).equals(text)) return;
        Files.writeString(file, text);
    }
}
