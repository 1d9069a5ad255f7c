package org.shmem4j.launcher;

import java.util.ArrayList;
import java.util.List;
import org.shmem4j.launcher.LaunchOptions.UsageException;

/** Splitting and quoting command lines as a POSIX shell does (for {@code --ssh} and remote commands). */
final class ShellWords {
    private ShellWords() {}

    /**
     * Splits {@code s} into words at unquoted blanks, honouring single quotes, double quotes and
     * backslashes (no expansions).
     */
    static List<String> split(String s) throws UsageException {
        var words = new ArrayList<String>();
        var word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\\' && i + 1 < s.length() && (quote == 0 || "\"\\$`".indexOf(s.charAt(i + 1)) >= 0)) {
                word.append(s.charAt(++i));
                inWord = true;
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new UsageException("unterminated " + quote + " quote in '" + s + "'");
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** {@code words} as one shell command line in which every word stays one word, literally. */
    static String join(List<String> words) {
        var sb = new StringBuilder();
        for (String w : words) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(quote(w));
        }
        return sb.toString();
    }

    static String quote(String w) {
        return w.matches("[A-Za-z0-9_./=:,+@%-]+") ? w : "'" + w.replace("'", "'\\''") + "'";
    }
}
