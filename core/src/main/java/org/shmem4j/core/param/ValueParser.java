package org.shmem4j.core.param;

import org.shmem4j.ShmemException;

/**
 * Turns the raw text of an environment variable into a typed value.
 *
 * @param <T> the value type
 */
@FunctionalInterface
public interface ValueParser<T> {
    /**
     * Parses {@code text}.
     *
     * @param variable the variable that supplied the text (the parameter's name or its deprecated
     *     alias), to be named in the error message
     * @param text the raw value, exactly as found in the environment
     * @return the parsed value, never {@code null}
     * @throws ShmemException if the text is invalid; the message names the variable, the value and
     *     the expected form
     */
    T parse(String variable, String text);
}
