/**
 * What the library says about itself: which build it is ({@link org.shmem4j.core.info.BuildInfo})
 * and what {@code oshrun --info} prints about it and this machine
 * ({@link org.shmem4j.core.info.InfoReport}).
 */
package org.shmem4j.core.info;
