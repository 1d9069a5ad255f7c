package org.shmem4j.junit;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.shmem4j.Shmem;
import org.shmem4j.inprocess.InProcessJob;

/**
 * One run of a {@link ShmemTest} method: an in-process job of {@code pes} PEs, each calling the
 * method with its own {@link Shmem} in place of the parameters of that type.
 *
 * <p>JUnit resolves a method's parameters once, on the test's thread, before any PE exists; so
 * {@code Shmem} parameters resolve to a placeholder (null) here, and the interceptor skips JUnit's
 * own call and makes one per PE, with that PE's library in those places.
 */
record PeCountInvocation(int pes, int hosts, int nodes, Map<String, String> environment, Duration timeout)
        implements TestTemplateInvocationContext, InvocationInterceptor, ParameterResolver {
    @Override
    public String getDisplayName(int invocationIndex) {
        return ShmemTestExtension.name(pes, hosts, nodes);
    }

    @Override
    public List<Extension> getAdditionalExtensions() {
        return List.of(this);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Shmem.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return null; // replaced by each PE's library in interceptTestTemplateMethod
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        invocation.skip();
        Method method = call.getExecutable();
        method.setAccessible(true);
        Object target = call.getTarget().orElse(null);
        Object[] resolved = call.getArguments().toArray();
        Class<?>[] types = method.getParameterTypes();
        boolean initHere = List.of(types).contains(Shmem.class);
        InProcessJob.Result result = InProcessJob.run(pes, hosts, environment, timeout, () -> {
            Object[] args = resolved.clone();
            if (!initHere) {
                invoke(method, target, args);
                return;
            }
            try (Shmem shmem = Shmem.init()) {
                for (int i = 0; i < args.length; i++) {
                    if (types[i] == Shmem.class) {
                        args[i] = shmem;
                    }
                }
                invoke(method, target, args);
            }
        });
        if (result.status() != 0 || result.timedOut()) {
            throw failure(result);
        }
    }

    private static void invoke(Method method, Object target, Object[] args) throws Exception {
        try {
            method.invoke(target, args);
        } catch (InvocationTargetException e) {
            switch (e.getCause()) {
                case Exception thrown -> throw thrown;
                case Error error -> throw error;
                default -> throw e;
            }
        }
    }

    /**
     * One error for the run, naming it and every PE that failed (a consequence of another PE's
     * failure too: it shows where each PE was), PEs that failed alike on one line, with each
     * distinct exception attached; after a time-out, with the stacks of the PEs still running.
     */
    private AssertionError failure(InProcessJob.Result result) {
        StringBuilder message = new StringBuilder(ShmemTestExtension.name(pes, hosts, nodes)).append(": ");
        List<Throwable> attached = new ArrayList<>();
        if (result.timedOut()) {
            message.append("timed out after ").append(timeout.toMillis()).append(" ms (@ShmemTest timeout)");
        } else {
            message.append(result.failuresByPe().size()).append(" of ").append(pes).append(" PEs failed");
            if (result.failuresByPe().isEmpty()) {
                message.append(" (exit status ").append(result.status()).append(" from shmem_global_exit)");
            }
        }
        for (InProcessJob.Result.FailureGroup group : result.failureGroups()) {
            message.append("\n  ").append(group);
            attached.add(group.failure());
        }
        if (result.timedOut()) {
            // the job's own report of the time-out: every PE thread still running, with its stack
            message.append("\n").append(result.failures().getFirst().getMessage());
        }
        AssertionError error = new AssertionError(message.toString());
        attached.forEach(error::addSuppressed);
        return error;
    }
}
