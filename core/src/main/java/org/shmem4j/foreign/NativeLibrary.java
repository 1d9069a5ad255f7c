package org.shmem4j.foreign;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.function.Supplier;

/**
 * A system library bound through {@code java.lang.foreign} (UCX, PMIx), loaded once per process
 * on first use: its bound functions, or why it cannot be used here (saying what to install or
 * which JVM flag to add), so that a program that never needs it never fails for want of it.
 *
 * @param <T> the class holding the library's bound functions
 * @param library the bound functions, or null when loading failed
 * @param failure why loading failed, or null
 */
public record NativeLibrary<T>(T library, String failure) {
    /**
     * Runs {@code binder}, which loads and binds the library {@code soname}; a failure to find the
     * library or one of its functions is reported with {@code install} (e.g. "apt-get install
     * libucx0"), denied native access with the flag that grants it.
     */
    public static <T> NativeLibrary<T> load(String soname, String install, Supplier<T> binder) {
        try {
            return new NativeLibrary<>(binder.get(), null);
        } catch (IllegalCallerException e) {
            return new NativeLibrary<>(null, "native access is denied (" + e.getMessage()
                    + "); run Java with " + enableNativeAccess() + " (oshrun passes it)");
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            return new NativeLibrary<>(null, soname + " cannot be used (" + e.getMessage() + "); " + install);
        }
    }

    /**
     * The JVM flag that grants this library native access: it names the library's module on the
     * module path, and the unnamed module on the class path.
     */
    public static String enableNativeAccess() {
        Module module = NativeLibrary.class.getModule();
        return "--enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED");
    }

    /** Calls {@code fn}, a bound C function without arguments that returns a C string, e.g. a version. */
    public static String string(MethodHandle fn) {
        try {
            return ((MemorySegment) fn.invokeExact()).reinterpret(1024).getString(0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Binds function {@code name} of {@code lookup}; a missing one is an {@link UnsatisfiedLinkError}
     * naming it and {@code needed} (the version the binding was written for).
     */
    public static MethodHandle bind(Linker linker, SymbolLookup lookup, String name, FunctionDescriptor descriptor, String needed) {
        MemorySegment symbol = lookup.find(name).orElseThrow(() -> new UnsatisfiedLinkError(name + " is missing (" + needed + ")"));
        return linker.downcallHandle(symbol, descriptor);
    }
}
