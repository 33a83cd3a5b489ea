package dev.baton.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Prints a {@link BatonStartupException} the Spring Boot way ("APPLICATION FAILED TO START",
 * its description and the action to take) instead of a stack trace. Registered in
 * {@code META-INF/spring.factories}; the same on every Spring Boot line.
 *
 * <p>Stateless, thread-safe.
 */
public final class BatonStartupFailureAnalyzer extends AbstractFailureAnalyzer<BatonStartupException> {

    /** Creates the analyzer (Spring Boot does). */
    public BatonStartupFailureAnalyzer() {
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BatonStartupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
