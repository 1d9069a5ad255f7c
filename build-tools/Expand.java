/*
 * Expands the typed-code templates of shmem4j: one template stands for a family of methods or
 * classes that differ only in the Java carrier type (or the transfer size), so the family is
 * written once and generated, never copied by hand.
 *
 * Usage: java Expand.java TEMPLATE_DIR OUTPUT_DIR
 *
 * Every file TEMPLATE_DIR/**.java.in becomes OUTPUT_DIR/**.java. Inside a template:
 *   //# for T in long int ...      repeat the lines up to the matching //# end once per type
 *   //# for T in @amo @dep         ... once per type that has C names in every named type table
 *   //# for S in 8 16 32 64 128    repeat once per transfer size in bits
 *   //# for OP in and or xor ...   repeat once per operation of OPERATIONS
 *   //# end
 * A loop's head is substituted first, so "//# for T in @$red$" takes the types of the operation's
 * reductions.
 * A template whose file name contains $T$ is written once per type named on its first line,
 * "//# file-per-type long int ...". Substitutions (for the current T, S or OP):
 *   $t$ long   $T$ Long   $Box$ Long   $LAYOUT$ JAVA_LONG   $BYTES$ 8   $BITS$ 64
 *   $ctypes$   the C TYPENAMEs of the spec's RMA table carried by this Java type
 *   $S$ 64     $SBYTES$ 8   (inside a size loop)
 *   $each:shmem_%_p shmem_ctx_%_p$   "shmem_long_p", "shmem_longlong_p", ..., "shmem_ctx_long_p", ...:
 *                      each space-separated pattern once per C TYPENAME of the current type, quoted
 *                      and comma-separated (for @Binds lists; empty for a type with no C name)
 *   $each@amo:...$     the same over another of the spec's type tables (amo, ext, bit, dep; rma is the default)
 *   $op$ and  $Op$ And  $OP$ AND  $cop$ and (C's name: umax is max)  $red$ bitred  $amo$ bit
 *   $doc$ bitwise AND  $Doc$ Bitwise AND   (inside an operation loop, see OPERATIONS)
 * Blocks nest (a size loop inside a type loop, an operation loop around a type loop, ...); the
 * loops' variables are substituted before the $each$ names, so "$each@$red$:shmem_%_$cop$_reduce$"
 * works.
 *   //# delegate org/shmem4j/Context.java.in to EXPR except NAME ...
 *                      a final forwarding method to EXPR for every instance method (abstract or
 *                      default) the interface of that template (relative to TEMPLATE_DIR) declares,
 *                      except the methods NAMEd: a class that implements an interface by composition
 *                      never lists the interface's methods a second time
 */
import java.io.IOException;
import java.nio.file.*;
import java.util.*;
import java.util.stream.Stream;

public class Expand {
    /** A Java carrier type; its C names are in TYPE_TABLES. */
    record Carrier(String t, String T, String box, String layout, int bytes) {
        /** The C TYPENAMEs of one of the spec's type tables carried by this type (see TYPE_TABLES). */
        List<String> cnames(String table) {
            Map<String, List<String>> byCarrier = TABLES.get(table);
            if (byCarrier == null) throw new IllegalStateException("unknown type table " + table);
            return byCarrier.getOrDefault(t, List.of());
        }

        /** The C TYPENAMEs of the RMA table, for Javadoc ($ctypes$). */
        String ctypes() {
            List<String> names = cnames("rma");
            return names.isEmpty() ? "(none: a Java extension for UTF-16 data; C ushort/uint16 travel as short)" : String.join(", ", names);
        }
    }

    static final Map<String, Carrier> CARRIERS = new LinkedHashMap<>();
    static {
        add("byte", "Byte", "Byte", "JAVA_BYTE", 1);
        add("short", "Short", "Short", "JAVA_SHORT", 2);
        add("int", "Int", "Integer", "JAVA_INT", 4);
        add("long", "Long", "Long", "JAVA_LONG", 8);
        add("float", "Float", "Float", "JAVA_FLOAT", 4);
        add("double", "Double", "Double", "JAVA_DOUBLE", 8);
        add("char", "Char", "Character", "JAVA_CHAR", 2);
    }

    static void add(String t, String T, String box, String layout, int bytes) {
        CARRIERS.put(t, new Carrier(t, T, box, layout, bytes));
    }

    /**
     * The spec's C TYPENAMEs by type table and Java carrier, one line per pair: "rma" (table 5),
     * "amo" (standard AMOs, table 6, also the point-to-point synchronization types), "ext"
     * (extended AMOs, table 7), "bit" (bitwise AMOs, table 8), and the reduction groups of table
     * 10: "bitred" (AND/OR/XOR), "sred" (MAX/MIN on signed and real types), "ured" (MAX/MIN on
     * unsigned types: the Java methods umaxReduce/uminReduce); SUM/PROD use "rma"; "dep": the C
     * types of the deprecated routines (table 11's TYPE_OP_to_all, the 1.4 AMO and wait names),
     * where Java long carries C long and long long; "plain": the empty name ("-") for long only,
     * for C names without a TYPENAME that take a long ("shmem_wait%"). A carrier a table does not
     * list has no C name there (char has none at all: C's 16-bit unsigned types travel as short).
     */
    static final String TYPE_TABLES = """
            rma     byte    char schar uchar int8 uint8
            rma     short   short ushort int16 uint16
            rma     int     int uint int32 uint32
            rma     long    long longlong ulong ulonglong int64 uint64 size ptrdiff
            rma     float   float
            rma     double  double
            amo     int     int uint int32 uint32
            amo     long    long longlong ulong ulonglong int64 uint64 size ptrdiff
            ext     int     int uint int32 uint32
            ext     long    long longlong ulong ulonglong int64 uint64 size ptrdiff
            ext     float   float
            ext     double  double
            bit     int     uint int32 uint32
            bit     long    ulong ulonglong int64 uint64
            bitred  byte    uchar int8 uint8
            bitred  short   ushort int16 uint16
            bitred  int     uint int32 uint32
            bitred  long    ulong ulonglong int64 uint64 size
            sred    byte    char schar int8
            sred    short   short int16
            sred    int     int int32
            sred    long    long longlong int64 ptrdiff
            sred    float   float
            sred    double  double
            ured    byte    uchar uint8
            ured    short   ushort uint16
            ured    int     uint uint32
            ured    long    ulong ulonglong uint64 size
            dep     short   short
            dep     int     int
            dep     long    long longlong
            dep     float   float
            dep     double  double
            plain   long    -
            """;

    /** TYPE_TABLES read: table -> carrier -> C names, in the order written. */
    static final Map<String, Map<String, List<String>>> TABLES = new LinkedHashMap<>();
    static {
        for (String line : TYPE_TABLES.strip().split("\n")) {
            String[] w = line.trim().split("\s+");
            if (!CARRIERS.containsKey(w[1])) throw new IllegalStateException("TYPE_TABLES: unknown type " + w[1]);
            List<String> names = Arrays.stream(w, 2, w.length).map(n -> n.equals("-") ? "" : n).toList();
            TABLES.computeIfAbsent(w[0], k -> new LinkedHashMap<>()).put(w[1], names);
        }
    }

    /**
     * The operations a template loops over with "//# for OP in ...", one line each: the Java name
     * ($op$, and $Op$, $OP$ as in atomicFetchAnd, ReduceKernels.INT_AND, AtomicOp.AND), its name in
     * C routines ($cop$: umax is C's max on unsigned types), the type table of its reductions
     * ($red$) and of its AMOs ($amo$; "-": none), then what it computes, for Javadoc ($doc$, and
     * $Doc$ capitalized).
     */
    static final String OPERATIONS = """
            add   add   -       amo  addition
            and   and   bitred  bit  bitwise AND
            or    or    bitred  bit  bitwise OR
            xor   xor   bitred  bit  bitwise XOR
            umax  max   ured    -    maximum with the elements read as unsigned (C's unsigned types)
            umin  min   ured    -    minimum with the elements read as unsigned (C's unsigned types)
            max   max   sred    -    maximum (signed, or IEEE for floating point)
            min   min   sred    -    minimum (signed, or IEEE for floating point)
            sum   sum   rma     -    sum (two's complement wrap for integers, so signed and unsigned alike)
            prod  prod  rma     -    product
            """;

    /** OPERATIONS read: name -> its loop variables. */
    static final Map<String, Map<String, String>> OPS = new LinkedHashMap<>();
    static {
        for (String line : OPERATIONS.strip().split("\n")) {
            String[] w = line.trim().split("\s+", 5);
            Map<String, String> v = new HashMap<>();
            v.put("$op$", w[0]);
            v.put("$Op$", capitalized(w[0]));
            v.put("$OP$", w[0].toUpperCase(Locale.ROOT));
            v.put("$cop$", w[1]);
            v.put("$red$", w[2]);
            v.put("$amo$", w[3]);
            v.put("$doc$", w[4]);
            v.put("$Doc$", capitalized(w[4]));
            OPS.put(w[0], v);
        }
    }

    static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** TEMPLATE_DIR, where the templates that //# delegate names are found. */
    static Path root;

    public static void main(String[] args) throws IOException {
        Path in = Path.of(args[0]), out = Path.of(args[1]);
        root = in;
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
                String[] head = subst(trimmed, outer).substring("//# for ".length()).trim().split("\\s+");
                if (head.length < 3 || !head[1].equals("in")) throw new IllegalStateException(where + ":" + (i + 1) + ": expected //# for X in ...");
                List<String> body = lines.subList(i + 1, end);
                List<String> values = Arrays.asList(head).subList(2, head.length);
                if (head[0].equals("T") && values.get(0).startsWith("@")) {
                    values = carriersIn(values, where);
                }
                for (String value : values) {
                    Map<String, String> vars = new HashMap<>(outer);
                    if (head[0].equals("T")) {
                        vars.putAll(typeVars(carrier(value, where)));
                    } else if (head[0].equals("S")) {
                        int bits = Integer.parseInt(value);
                        vars.put("$S$", value); vars.put("$SBYTES$", Integer.toString(bits / 8));
                    } else if (head[0].equals("OP")) {
                        Map<String, String> op = OPS.get(value);
                        if (op == null) throw new IllegalStateException(where + ":" + (i + 1) + ": unknown operation " + value);
                        vars.putAll(op);
                    } else {
                        throw new IllegalStateException(where + ":" + (i + 1) + ": loop variable must be T, S or OP");
                    }
                    result.addAll(expand(body, vars, where));
                }
                i = end;
            } else if (trimmed.startsWith("//# delegate ")) {
                result.addAll(Delegate.forwarders(trimmed.substring("//# delegate ".length()).trim(), where));
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

    /** The carriers, in CARRIERS order, that have C names in every type table of {@code tables} ("@amo"). */
    static List<String> carriersIn(List<String> tables, Path where) {
        List<String> result = new ArrayList<>();
        for (Carrier c : CARRIERS.values()) {
            boolean inAll = true;
            for (String table : tables) {
                if (!table.startsWith("@")) throw new IllegalStateException(where + ": mixed types and @tables in " + tables);
                inAll &= !c.cnames(table.substring(1)).isEmpty();
            }
            if (inAll) result.add(c.t());
        }
        return result;
    }

    static final java.util.regex.Pattern EACH = java.util.regex.Pattern.compile("\\$each(?:@(\\w+))?:([^$]+)\\$");

    static String subst(String s, Map<String, String> vars) {
        if (s.indexOf('$') < 0) return s;
        for (Map.Entry<String, String> e : vars.entrySet()) s = s.replace(e.getKey(), e.getValue());
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

    /**
     * The forwarding methods of //# delegate. The interface's text (expanded like any template) is
     * cut into member declarations at the top level of its body; a member with a parameter list
     * that is neither static nor private is an instance method and gets a forwarder.
     */
    static final class Delegate {
        static List<String> forwarders(String directive, Path where) {
            String[] w = directive.split("\\s+");
            if (w.length < 3 || !w[1].equals("to") || (w.length > 3 && !w[3].equals("except"))) {
                throw new IllegalStateException(where + ": expected //# delegate TEMPLATE to EXPR [except NAME ...]");
            }
            Path source = root.resolve(w[0]);
            List<String> text;
            try {
                text = expand(Files.readAllLines(source), Map.of(), source);
            } catch (IOException e) {
                throw new IllegalStateException(where + ": cannot read " + source, e);
            }
            Set<String> except = new LinkedHashSet<>(Arrays.asList(w).subList(Math.min(4, w.length), w.length));
            Set<String> unused = new LinkedHashSet<>(except);
            String code = withoutComments(String.join("\n", text));
            int open = code.indexOf('{', code.indexOf(" interface "));
            List<String> out = new ArrayList<>();
            for (String member : members(code, open + 1)) {
                String header = withoutAnnotations(member).replaceAll("\\s+", " ").trim();
                int paren = header.indexOf('(');
                if (paren < 0 || header.substring(0, paren).contains("=")) {
                    continue; // a constant
                }
                List<String> head = new ArrayList<>(Arrays.asList(header.substring(0, paren).trim().split(" ")));
                if (head.contains("static") || head.contains("private")) {
                    continue;
                }
                head.removeIf(word -> word.equals("default") || word.equals("abstract") || word.equals("public"));
                String name = head.remove(head.size() - 1);
                if (except.contains(name)) {
                    unused.remove(name);
                    continue;
                }
                String signature = String.join(" ", head) + " " + name + header.substring(paren);
                String params = header.substring(paren + 1, header.lastIndexOf(')')).trim();
                String returnType = head.get(head.size() - 1);
                String call = w[2] + "." + name + "(" + String.join(", ", parameterNames(params)) + ");";
                out.add("");
                out.add("    @Override");
                out.add("    public final " + signature + " {");
                out.add("        " + (returnType.equals("void") ? "" : "return ") + call);
                out.add("    }");
            }
            if (!unused.isEmpty()) {
                throw new IllegalStateException(where + ": //# delegate excepts methods " + source + " does not declare: " + unused);
            }
            return out;
        }

        /** The text with comments removed (string and character literals kept as they are). */
        static String withoutComments(String s) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\'') {
                    int end = literalEnd(s, i);
                    b.append(s, i, end);
                    i = end - 1;
                } else if (s.startsWith("//", i)) {
                    i = s.indexOf('\n', i) - 1;
                    if (i < 0) break;
                } else if (s.startsWith("/*", i)) {
                    i = s.indexOf("*/", i) + 1;
                    b.append(' ');
                } else {
                    b.append(c);
                }
            }
            return b.toString();
        }

        /** The index after the string or character literal that starts at {@code i}. */
        static int literalEnd(String s, int i) {
            char quote = s.charAt(i);
            int j = i + 1;
            while (s.charAt(j) != quote) {
                j += s.charAt(j) == '\\' ? 2 : 1;
            }
            return j + 1;
        }

        /**
         * The member declarations of the body that starts at {@code from}: the text before each
         * top-level ';' or method body (braces inside parentheses belong to annotations).
         */
        static List<String> members(String s, int from) {
            List<String> result = new ArrayList<>();
            StringBuilder current = new StringBuilder();
            int parens = 0;
            for (int i = from; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\'') {
                    int end = literalEnd(s, i);
                    current.append(s, i, end);
                    i = end - 1;
                    continue;
                }
                if (c == '(') parens++;
                if (c == ')') parens--;
                if (parens == 0 && (c == ';' || c == '{')) {
                    result.add(current.toString());
                    current.setLength(0);
                    if (c == '{') {
                        i = closing(s, i, '{', '}');
                    }
                } else if (parens == 0 && c == '}') {
                    return result; // the end of the interface
                } else {
                    current.append(c);
                }
            }
            throw new IllegalStateException("unterminated interface body");
        }

        /** The index of the {@code closer} that matches the {@code opener} at {@code open} (literals skipped). */
        static int closing(String s, int open, char opener, char closer) {
            int depth = 0;
            for (int i = open; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\'') {
                    i = literalEnd(s, i) - 1;
                } else if (c == opener) {
                    depth++;
                } else if (c == closer && --depth == 0) {
                    return i;
                }
            }
            throw new IllegalStateException("unbalanced " + opener + closer);
        }

        /** The declaration without its annotations (an annotation's arguments may hold any text). */
        static String withoutAnnotations(String s) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < s.length(); i++) {
                if (s.charAt(i) != '@') {
                    b.append(s.charAt(i));
                    continue;
                }
                int j = i + 1;
                while (j < s.length() && (Character.isJavaIdentifierPart(s.charAt(j)) || s.charAt(j) == '.')) j++;
                while (j < s.length() && Character.isWhitespace(s.charAt(j))) j++;
                if (j < s.length() && s.charAt(j) == '(') {
                    j = closing(s, j, '(', ')') + 1;
                }
                i = j - 1;
            }
            return b.toString();
        }

        /** The names of a parameter list: the last word of each parameter (commas inside <> do not split). */
        static List<String> parameterNames(String params) {
            List<String> names = new ArrayList<>();
            if (params.isEmpty()) return names;
            int angles = 0, start = 0;
            for (int i = 0; i <= params.length(); i++) {
                char c = i < params.length() ? params.charAt(i) : ',';
                if (c == '<') angles++;
                if (c == '>') angles--;
                if (c == ',' && angles == 0) {
                    String[] words = params.substring(start, i).trim().split("[\\s.]+");
                    names.add(words[words.length - 1]);
                    start = i + 1;
                }
            }
            return names;
        }
    }
}
