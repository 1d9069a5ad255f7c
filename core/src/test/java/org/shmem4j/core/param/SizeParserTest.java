package org.shmem4j.core.param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.shmem4j.ShmemException;

class SizeParserTest {
    private static long parse(String text) {
        return SizeParser.parse("SHMEM_SYMMETRIC_SIZE", text);
    }

    @Test
    void specExamples() {
        assertEquals(20_971_520L, parse("20m"));
        assertEquals(3_250_586L, parse("3.1M"));
        assertEquals(20_480L, parse("20kk"));
        assertEquals(524_288L, parse(".5m"));
        assertEquals(parse("0.5m"), parse(".5m"));
    }

    @ParameterizedTest(name = "\"{0}\" = {1}")
    @CsvSource(delimiter = '|', value = {
        "0                      | 0",
        "0.0                    | 0",
        "00012                  | 12",
        "4096                   | 4096",
        "5.                     | 5",
        "1k                     | 1024",
        "1K                     | 1024",
        "1m                     | 1048576",
        "1g                     | 1073741824",
        "1G                     | 1073741824",
        "1t                     | 1099511627776",
        "2T                     | 2199023255552",
        "1gX                    | 1073741824",
        "20k20                  | 20480",
        "9223372036854775807    | 9223372036854775807",
        "8388607t               | 9223370937343148032",
    })
    void validSizes(String text, long expected) {
        assertEquals(expected, parse(text));
    }

    @Test
    void surroundingWhitespaceAndIgnoredTail() {
        assertEquals(65_536L, parse("  64k "));
        assertEquals(134_217_728L, parse("\t128m\n"));
        assertEquals(1024L, parse("1k junk"));
        assertEquals(1024L, parse("1k "));
    }

    @ParameterizedTest(name = "\"{0}\" rounds up to {1}")
    @CsvSource(delimiter = '|', value = {
        "1.5                          | 2",
        "0.1                          | 1",
        "0.0000001                    | 1",
        "1.0000000000000000001k       | 1025",
        "0.999999999999999999999k     | 1024",
        "0.0009765625k                | 1",
        "0.00048828125k               | 1",
        "3.1M                         | 3250586",
        "3.0M                         | 3145728",
        "9223372036854775806.5        | 9223372036854775807",
    })
    void ceiling(String text, long expected) {
        assertEquals(expected, parse(text));
    }

    @ParameterizedTest(name = "\"{0}\" is invalid")
    @ValueSource(strings = {
        "", "   ", "-1", "-0", "+1", "abc", "k", "m", "1.2.3", "1.2.3k", "20x", "0x10", "1e5",
        "1E5", "1e5k", "1\u212A", "NaN", "Infinity", ".", ".k", "1 k", "1,5", "1_000", "\u0663",
        "9223372036854775808", "9223372036854775807.1", "8388608t", "99999999999999999999999t"
    })
    void invalid(String text) {
        ShmemException e = assertThrows(ShmemException.class, () -> parse(text));
        assertEquals(true, e.getMessage().startsWith("SHMEM_SYMMETRIC_SIZE='" + text
                + "' is not a valid size: "), e.getMessage());
    }

    @Test
    void invalidMessageNamesVariableValueAndForm() {
        ShmemException e = assertThrows(ShmemException.class, () -> parse("20x"));
        assertEquals("SHMEM_SYMMETRIC_SIZE='20x' is not a valid size: expected a non-negative"
                + " number with an optional k, m, g or t suffix (e.g. 512m)", e.getMessage());
        e = assertThrows(ShmemException.class, () -> SizeParser.parse("SMA_SYMMETRIC_SIZE", "k"));
        assertEquals("SMA_SYMMETRIC_SIZE='k' is not a valid size: expected a non-negative"
                + " number with an optional k, m, g or t suffix (e.g. 512m)", e.getMessage());
    }

    @Test
    void overflowMessage() {
        ShmemException e = assertThrows(ShmemException.class, () -> parse("8388608t"));
        assertEquals("SHMEM_SYMMETRIC_SIZE='8388608t' is not a valid size: the size exceeds"
                + " 9223372036854775807 bytes", e.getMessage());
    }

    @ParameterizedTest(name = "{0} formats as {1}")
    @CsvSource(delimiter = '|', value = {
        "0             | 0",
        "1             | 1",
        "1536          | 1536",
        "2048          | 2k",
        "134217728     | 128m",
        "4194304       | 4m",
        "3221225472    | 3g",
        "1099511627776 | 1t",
        "3298534883328 | 3t",
    })
    void formatRoundTrips(long bytes, String expected) {
        assertEquals(expected, SizeParser.format(bytes));
        assertEquals(bytes, parse(expected));
    }
}
