package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.RunNotSuspendedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunAction;
import dev.baton.agent.RunListener;
import dev.baton.agent.RunOutcome;
import dev.baton.store.memory.MemorySnapshotStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Baton's meters in a SimpleMeterRegistry: timers from observations, counters, and gauges that never query per scrape. */
class MetricsTest {

    @Configuration(proxyBeanMethods = false)
    static class ConciergeBean {
        @Bean
        Agent concierge(BatonAgents baton) {
            return TestAgents.concierge(baton, "concierge");
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(BootLine.observationAndMetrics())
            .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonMetricsAutoConfiguration.class))
            .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
            .withUserConfiguration(ConciergeBean.class)
            .withPropertyValues("baton.metrics.suspended-runs-refresh=1h");

    /** Starts a run that suspends and approves it, reading everything. */
    private static AgentResult startAndApprove(Agent agent) {
        AgentResult first = TestAgents.suspendedRun(agent, "alice");
        assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        String call = first.waitingCalls().get(0).toolCallId();
        AgentResult second = agent.approveToolCall(first.runId(), call).result();
        assertThat(second.outcome()).isEqualTo(RunOutcome.COMPLETED);
        return second;
    }

    @Nested
    class Timers {
        @Test
        void aRunThatSuspendsAndIsApprovedIsTimedByActionOutcomeToolAndModel() {
            runner.run(ctx -> {
                MeterRegistry meters = ctx.getBean(MeterRegistry.class);
                startAndApprove(ctx.getBean(Agent.class));

                assertThat(meters.get("baton.start").tags("agent", "concierge", "action", "start", "outcome", "suspended")
                        .timer().count()).isEqualTo(1);
                assertThat(meters.get("baton.resume").tags("agent", "concierge", "action", "approve", "outcome", "completed")
                        .timer().count()).isEqualTo(1);
                Timer tool = meters.get("baton.tool.executions").tags("agent", "concierge", "tool", "bookFlight", "outcome", "success")
                        .timer();
                assertThat(tool.count()).isEqualTo(1);
                assertThat(tool.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
                assertThat(meters.get("baton.model.calls").tags("agent", "concierge", "outcome", "ok").timer().count())
                        .as("one call that asked for the tool, one that answered after it").isEqualTo(2);
            });
        }

        @Test
        void noTagCarriesTheRunId() {
            runner.run(ctx -> {
                AgentResult r = startAndApprove(ctx.getBean(Agent.class));
                ctx.getBean(MeterRegistry.class).getMeters().forEach(m -> assertThat(m.getId().getTags())
                        .as(m.getId().toString()).noneMatch(t -> t.getValue().equals(r.runId())));
            });
        }

        @Test
        void withoutAnObservationRegistryTheTimersAreStillRecorded() {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonMetricsAutoConfiguration.class))
                    .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                    .withUserConfiguration(ConciergeBean.class)
                    .run(ctx -> {
                        startAndApprove(ctx.getBean(Agent.class));
                        assertThat(ctx.getBean(MeterRegistry.class).get("baton.resume").tags("action", "approve").timer().count())
                                .isEqualTo(1);
                    });
        }
    }

    @Nested
    class Counters {
        @Test
        void aClaimThatLosesTheRaceCountsAsAConflict() {
            runner.run(ctx -> {
                Agent agent = ctx.getBean(Agent.class);
                AgentResult first = TestAgents.suspendedRun(agent, "bob");
                String call = first.waitingCalls().get(0).toolCallId();
                try (AgentStream winner = agent.approveToolCall(first.runId(), call)) {
                    assertThatThrownBy(() -> agent.approveToolCall(first.runId(), call)).isInstanceOf(RunNotSuspendedException.class);
                    assertThatThrownBy(() -> agent.declineToolCall(first.runId(), call)).isInstanceOf(RunNotSuspendedException.class);
                    assertThat(winner.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
                }
                MeterRegistry meters = ctx.getBean(MeterRegistry.class);
                assertThat(meters.get("baton.claim.conflicts").tags("agent", "concierge", "action", "approve").counter().count())
                        .isEqualTo(1);
                assertThat(meters.get("baton.claim.conflicts").tags("agent", "concierge", "action", "decline").counter().count())
                        .isEqualTo(1);
            });
        }

        @Test
        void aLostLeaseIsCountedPerAgent() {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            BatonMeterListener listener = new BatonMeterListener(meters);
            listener.leaseLost(new RunListener.LeaseLoss("concierge", "run-1"));
            listener.leaseLost(new RunListener.LeaseLoss("concierge", "run-2"));
            listener.leaseLost(new RunListener.LeaseLoss("visa-desk", "run-3"));
            assertThat(meters.get("baton.lease.lost").tags("agent", "concierge").counter().count()).isEqualTo(2);
            assertThat(meters.get("baton.lease.lost").tags("agent", "visa-desk").counter().count()).isEqualTo(1);
        }

        @Test
        void aClaimConflictIsTaggedWithTheActionsWireNameAsBefore() {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            BatonMeterListener listener = new BatonMeterListener(meters);
            for (RunAction action : RunAction.values()) listener.claimConflict(new RunListener.Claim("concierge", "run-1", action));
            for (String tag : List.of("start", "approve", "decline", "resume", "continue", "cancel", "discard", "expire")) {
                assertThat(meters.get("baton.claim.conflicts").tags("agent", "concierge", "action", tag).counter().count())
                        .as(tag).isEqualTo(1);
            }
        }
    }

    @Nested
    class Gauges {
        @Test
        void suspendedRunsArePerAgentAndCountedInTheBackgroundNeverPerScrape() {
            CountingStore store = new CountingStore(MemorySnapshotStore.create());
            runner.withBean(dev.baton.store.SnapshotStore.class, () -> store).run(ctx -> {
                MeterRegistry meters = ctx.getBean(MeterRegistry.class);
                // the first count runs in the background at start
                await().atMost(Duration.ofSeconds(10)).until(() -> meters.get("baton.runs.suspended").gauge().value() == 0.0);

                Agent agent = ctx.getBean(Agent.class);
                TestAgents.suspendedRun(agent, "alice");
                TestAgents.suspendedRun(agent, "bob");
                ctx.getBean(BatonRunGauges.class).refresh();
                int listingsAfterRefresh = store.lists.get();

                for (int scrape = 0; scrape < 100; scrape++) {
                    assertThat(meters.get("baton.runs.suspended").tags("agent", "concierge").gauge().value()).isEqualTo(2.0);
                    assertThat(meters.get("baton.runs.resuming").tags("agent", "concierge").gauge().value()).isEqualTo(0.0);
                }
                assertThat(store.lists.get()).as("store listings during 100 scrapes").isEqualTo(listingsAfterRefresh);
            });
        }

        @Test
        void aFailingCountKeepsTheLastValue() {
            CountingStore store = new CountingStore(MemorySnapshotStore.create());
            runner.withBean(dev.baton.store.SnapshotStore.class, () -> store).run(ctx -> {
                MeterRegistry meters = ctx.getBean(MeterRegistry.class);
                await().atMost(Duration.ofSeconds(10)).until(() -> meters.get("baton.runs.suspended").gauge().value() == 0.0);
                TestAgents.suspendedRun(ctx.getBean(Agent.class), "alice");
                ctx.getBean(BatonRunGauges.class).refresh();
                store.delegate.close();   // every later call fails
                ctx.getBean(BatonRunGauges.class).refresh();
                assertThat(meters.get("baton.runs.suspended").gauge().value()).isEqualTo(1.0);
            });
        }
    }

    @Nested
    class SwitchedOff {
        @Test
        void withoutMicrometerBeansThereAreNoBatonListeners() {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonMetricsAutoConfiguration.class))
                    .run(ctx -> assertThat(ctx).doesNotHaveBean(BatonObservationListener.class)
                            .doesNotHaveBean(BatonMeterListener.class).doesNotHaveBean(BatonRunGauges.class));
        }

        @Test
        void batonMetricsEnabledFalseRecordsNothing() {
            runner.withPropertyValues("baton.metrics.enabled=false").run(ctx -> {
                assertThat(ctx).doesNotHaveBean(BatonObservationListener.class).doesNotHaveBean(BatonMeterListener.class);
                startAndApprove(ctx.getBean(Agent.class));
                assertThat(ctx.getBean(MeterRegistry.class).find("baton.resume").timers()).isEmpty();
            });
        }

        @Test
        void withoutMicrometerOnTheClassPathTheStarterStillStarts() {
            new ApplicationContextRunner()
                    .withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader("io.micrometer"))
                    .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonMetricsAutoConfiguration.class))
                    .withUserConfiguration(ConciergeBean.class)
                    .run(ctx -> {
                        assertThat(ctx).hasNotFailed().doesNotHaveBean(BatonObservationListener.class);
                        assertThat(ctx.getBean(BatonAgents.class).listeners()).isEmpty();
                    });
        }
    }
}
