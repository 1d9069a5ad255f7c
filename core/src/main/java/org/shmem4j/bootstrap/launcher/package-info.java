/**
 * The PE side of {@code oshrun}: the environment variables a launched PE receives
 * ({@link org.shmem4j.bootstrap.launcher.LaunchEnv}), the wire protocol between launcher and PE
 * ({@link org.shmem4j.bootstrap.launcher.Wire}) and the bootstrap built on them
 * ({@link org.shmem4j.bootstrap.launcher.LauncherBootstrap}).
 */
package org.shmem4j.bootstrap.launcher;
