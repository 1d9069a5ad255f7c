/**
 * {@code oshrun}, the job launcher of shmem4j: command line ({@link org.shmem4j.launcher.LaunchOptions}),
 * process starting ({@link org.shmem4j.launcher.PeStarter}), and the entry point
 * {@link org.shmem4j.launcher.Oshrun}. The rendezvous service, output forwarding and the job's
 * containment policy are package-private.
 */
package org.shmem4j.launcher;
