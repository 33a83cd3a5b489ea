package dev.baton.tck.support;

import java.lang.reflect.Method;
import java.util.Locale;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.AssertionFailedError;

/**
 * Makes every failed assertion of a contract name the rule it checks. A TCK test's name is its rule
 * ({@code toDateIsInclusive}, listed under its rule in docs/rules.md), so a failure such as
 * {@code [another version] Expecting value to be false but was true} reads
 * {@code rule "to date is inclusive" (SnapshotStoreContract > Filters > toDateIsInclusive): [another version] ...}.
 * Registered on every contract ({@code @ExtendWith}), and so on each of its {@code @Nested} groups. The
 * original error is the cause, its stack trace kept, and an {@link AssertionFailedError}'s expected and
 * actual values are kept for IDEs. Not API.
 */
public final class NamesTheRule implements TestExecutionExceptionHandler {
    /** The start of every message this handler writes. */
    static final String PREFIX = "rule \"";

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        if (!(thrown instanceof AssertionError) || String.valueOf(thrown.getMessage()).startsWith(PREFIX)) throw thrown;
        String message = ruleOf(context) + ": " + thrown.getMessage();
        AssertionError named = thrown instanceof AssertionFailedError a && a.isExpectedDefined() && a.isActualDefined()
                ? new AssertionFailedError(message, a.getExpected().getValue(), a.getActual().getValue(), thrown)
                : new AssertionError(message, thrown);
        named.setStackTrace(thrown.getStackTrace());
        throw named;
    }

    /**
     * The rule a test checks, from its name and where it stands.
     *
     * @param context the test's context
     * @return {@code rule "<the name in words>" (<contract> > <group> > <method>)}
     */
    static String ruleOf(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        Class<?> testClass = context.getRequiredTestClass();
        StringBuilder where = new StringBuilder();
        Class<?> contract = testClass.getEnclosingClass();
        if (contract != null) where.append(contract.getSimpleName()).append(" > ").append(testClass.getSimpleName());
        else where.append(method.getDeclaringClass().getSimpleName());
        where.append(" > ").append(method.getName());
        return PREFIX + words(method.getName()) + "\" (" + where + ")";
    }

    /**
     * {@return a method name in words: {@code toDateIsInclusive} is "to date is inclusive"}
     *
     * @param name a camel-case name, parts perhaps joined by {@code _}
     */
    static String words(String name) {
        return String.join(" ", name.split("(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|_+")).toLowerCase(Locale.ROOT).trim();
    }
}
