package org.shmem4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the OpenSHMEM C routines a Java method implements. A name may contain the spec's
 * placeholders {@code TYPENAME} (every TYPENAME of the RMA type table that the Java carrier types
 * cover) and {@code SIZE} (8, 16, 32, 64, 128); the binding coverage test expands them the way the
 * spec's tables do and fails for any spec routine that is neither bound nor listed as unsupported.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface Binds {
    /** C routine names, e.g. {@code "shmem_putmem"}, {@code "shmem_TYPENAME_put"}, {@code "shmem_putSIZE"}. */
    String[] value();
}
