/**
 * The entry point of a PE process that {@code oshrun} starts
 * ({@link org.shmem4j.pe.PeMain}): above the runtime, which it finalizes when the program's main
 * ends, and the launcher's bootstrap, whose life it ties the PE's to.
 */
package org.shmem4j.pe;
