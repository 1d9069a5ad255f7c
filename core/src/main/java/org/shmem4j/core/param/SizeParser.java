package org.shmem4j.core.param;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Locale;

import org.shmem4j.ShmemException;

/**
 * Parses and formats byte sizes in the syntax of {@code SHMEM_SYMMETRIC_SIZE} (OpenSHMEM 1.6,
 * section 8): a non-negative integer or decimal number ({@code "20"}, {@code "3.1"}, {@code ".5"},
 * {@code "5."}) with an optional scaling suffix {@code k/K} (2<sup>10</sup>), {@code m/M}
 * (2<sup>20</sup>), {@code g/G} (2<sup>30</sup>) or {@code t/T} (2<sup>40</sup>). The result is
 * the integer ceiling of number &times; multiplier, computed exactly. Only one suffix is
 * recognised and anything after it is ignored, so {@code "20kk"} is 20480. Surrounding
 * whitespace is allowed; signs, exponents, hexadecimal, {@code NaN}, a missing number and
 * results beyond {@link Long#MAX_VALUE} are rejected.
 */
public final class SizeParser {
    /** The expected form, shared by every size error message. */
    static final String EXPECTED =
            "expected a non-negative number with an optional k, m, g or t suffix (e.g. 512m)";

    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final String SUFFIXES = "kmgt";
    // ASCII only: Character.toLowerCase would let the Kelvin sign (U+212A) pass as 'k'.
    private static final String ANY_CASE_SUFFIXES = SUFFIXES + SUFFIXES.toUpperCase(Locale.ROOT);

    private SizeParser() {}

    /**
     * Parses {@code text} as a size in bytes.
     *
     * @param variable the environment variable the text came from, named in error messages
     * @param text the raw value
     * @return the size in bytes, at least 0
     * @throws ShmemException if the text is not a valid size or does not fit a {@code long}
     */
    public static long parse(String variable, String text) {
        String s = text.strip();
        int i = 0;
        int digits = 0;
        // Number part: digits with at most one '.', scanned by hand so that BigDecimal never
        // sees (and so never accepts) signs, exponents or other forms it would tolerate.
        while (i < s.length() && isAsciiDigit(s.charAt(i))) {
            i++;
            digits++;
        }
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            while (i < s.length() && isAsciiDigit(s.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            throw invalid(variable, text, EXPECTED);
        }
        String number = s.substring(0, i);
        int shift = 0;
        if (i < s.length()) {
            // Exactly one suffix character must follow; the spec says the rest is ignored.
            int at = ANY_CASE_SUFFIXES.indexOf(s.charAt(i));
            if (at < 0) {
                throw invalid(variable, text, EXPECTED);
            }
            int suffix = at % SUFFIXES.length();
            shift = 10 * (suffix + 1);
        }
        // Exact arithmetic: a double cannot hold 3.1 or 1.0000000000000000001, so its ceiling
        // could be off by one.
        // (BigDecimal's grammar accepts the "5." and ".5" forms the scan above lets through.)
        BigDecimal bytes = new BigDecimal(number)
                .multiply(new BigDecimal(BigInteger.ONE.shiftLeft(shift)))
                .setScale(0, RoundingMode.CEILING);
        if (bytes.compareTo(MAX) > 0) {
            throw invalid(variable, text, "the size exceeds " + Long.MAX_VALUE + " bytes");
        }
        return bytes.longValueExact();
    }

    /**
     * Formats a byte count compactly: with the largest suffix that divides it exactly
     * ({@code 134217728} gives {@code "128m"}), otherwise as plain bytes. The result parses back
     * to the same value.
     *
     * @param bytes a non-negative byte count
     * @return the compact form
     */
    public static String format(long bytes) {
        if (bytes <= 0) {
            return Long.toString(bytes);
        }
        for (int k = SUFFIXES.length() - 1; k >= 0; k--) {
            int shift = 10 * (k + 1);
            if ((bytes & ((1L << shift) - 1)) == 0) {
                return (bytes >>> shift) + String.valueOf(SUFFIXES.charAt(k));
            }
        }
        return Long.toString(bytes);
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static ShmemException invalid(String variable, String text, String why) {
        return new ShmemException(variable + "='" + text + "' is not a valid size: " + why);
    }
}
