package org.shmem4j.junit;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;
import org.shmem4j.bootstrap.InProcessHub;

/**
 * The extension behind {@link ShmemTest}: one invocation per PE count, each run as an in-process
 * job by {@link PeCountInvocation}. Registered by the annotation; users do not name it.
 */
public final class ShmemTestExtension implements TestTemplateInvocationContextProvider {
    /** Made by JUnit. */
    public ShmemTestExtension() {
    }

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().flatMap(m -> AnnotationSupport.findAnnotation(m, ShmemTest.class)).isPresent();
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        ShmemTest config = AnnotationSupport.findAnnotation(method, ShmemTest.class).orElseThrow();
        Map<String, String> env = environment(method, config);
        Duration timeout = Duration.ofNanos(config.unit().toNanos(config.timeout()));
        if (config.pes().length == 0) {
            throw misuse(method, "pes is empty: give at least one PE count");
        }
        for (int pes : config.pes()) {
            if (pes < 1) {
                throw misuse(method, "pes = " + pes + " is not a PE count (at least 1)");
            }
        }
        if (config.hosts() < 1 || config.nodes() < 1) {
            throw misuse(method, "hosts = " + config.hosts() + ", nodes = " + config.nodes() + ": both must be at least 1");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw misuse(method, "timeout = " + config.timeout() + " " + config.unit() + " is not positive");
        }
        return Arrays.stream(config.pes()).mapToObj(pes -> new PeCountInvocation(pes, Math.min(pes, config.hosts()),
                Math.min(pes, config.nodes()), env, timeout));
    }

    private static Map<String, String> environment(Method method, ShmemTest config) {
        Map<String, String> env = new HashMap<>(System.getenv());
        for (String entry : config.env()) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw misuse(method, "env entry \"" + entry + "\" is not NAME=value");
            }
            env.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
        if (config.nodes() > 1) {
            env.put(InProcessHub.NODES, Integer.toString(config.nodes()));
        }
        return Map.copyOf(env);
    }

    private static ExtensionConfigurationException misuse(Method method, String problem) {
        return new ExtensionConfigurationException("@ShmemTest on " + method.getDeclaringClass().getSimpleName() + "."
                + method.getName() + ": " + problem);
    }

    /** The invocations' names, for messages: {@code pes=N}, with hosts and nodes when not 1. */
    static String name(int pes, int hosts, int nodes) {
        return "pes=" + pes + (hosts > 1 ? ", hosts=" + hosts : "") + (nodes > 1 ? ", nodes=" + nodes : "");
    }

    @Override
    public boolean mayReturnZeroTestTemplateInvocationContexts(ExtensionContext context) {
        return false;
    }
}
