package dev.baton.tck.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.opentest4j.AssertionFailedError;

/** A bare assertion of a contract fails with the rule it checks in front of AssertJ's own words. */
class NamesTheRuleTest {

    /** The configuration parameter under which the stand-ins run: only this test's own launcher sets it. */
    private static final String STAND_IN = "dev.baton.tck.standIn";

    /** Keeps the stand-ins (meant to fail) out of every run but the one this test launches. */
    static final class OnlyWhenLaunchedHere implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(STAND_IN).isPresent()
                    ? ConditionEvaluationResult.enabled("launched by NamesTheRuleTest")
                    : ConditionEvaluationResult.disabled("a stand-in contract that fails on purpose, run only by NamesTheRuleTest");
        }
    }

    /** Stands for a contract: the extension on the contract, a rule group nested in it. */
    @ExtendWith({OnlyWhenLaunchedHere.class, NamesTheRule.class})
    abstract static class AContract {
        @Nested
        class Filters {
            @Test
            void toDateIsInclusive() {
                assertThat(true).isFalse();   // bare, as the TCK's were
            }

            @Test
            void anEqualityNamesTheRuleAndKeepsExpectedAndActual() {
                assertThat("b").isEqualTo("a");
            }
        }
    }

    /** Stands for a store's test of that contract. */
    static class AStoresSuite extends AContract {
    }

    private static List<TestExecutionSummary.Failure> run() {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(AStoresSuite.class)).configurationParameter(STAND_IN, "true").build(),
                listener);
        return listener.getSummary().getFailures();
    }

    @Test
    void aBareAssertionFailsWithItsRuleInFront() {
        List<TestExecutionSummary.Failure> failures = run();
        assertThat(failures).as("both tests of the stand-in contract fail").hasSize(2);
        Throwable bare = failures.stream().map(TestExecutionSummary.Failure::getException)
                .filter(e -> e.getMessage().contains("toDateIsInclusive")).findFirst().orElseThrow();
        assertThat(bare.getMessage())
                .startsWith("rule \"to date is inclusive\" (AContract > Filters > toDateIsInclusive): ")
                .contains("Expecting value to be false but was true");
        assertThat(bare.getCause()).as("AssertJ's error is kept as the cause").isInstanceOf(AssertionError.class);
        assertThat(bare.getStackTrace()).as("the stack trace still points at the assertion").isEqualTo(bare.getCause().getStackTrace());
    }

    @Test
    void anEqualityKeepsExpectedAndActualForIdes() {
        Throwable equality = run().stream().map(TestExecutionSummary.Failure::getException)
                .filter(e -> e.getMessage().contains("anEqualityNamesTheRule")).findFirst().orElseThrow();
        assertThat(equality).isInstanceOfSatisfying(AssertionFailedError.class, e -> {
            assertThat(e.getMessage()).startsWith("rule \"an equality names the rule and keeps expected and actual\"");
            AssertionFailedError assertj = (AssertionFailedError) e.getCause();
            assertThat(e.getExpected().getValue()).isEqualTo(assertj.getExpected().getValue()).asString().contains("a");
            assertThat(e.getActual().getValue()).isEqualTo(assertj.getActual().getValue()).asString().contains("b");
        });
    }

    @Test
    void namesReadAsWords() {
        assertThat(NamesTheRule.words("toDateIsInclusive")).isEqualTo("to date is inclusive");
        assertThat(NamesTheRule.words("aRunIsATestOfM1_andM2")).isEqualTo("a run is a test of m1 and m2");
    }
}
