package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Rule R12 in the starter: closing the context closes every agent bean gracefully, handing back the runs it holds. */
class ShutdownTest {

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Agent concierge(BatonAgents baton) {
            return TestAgents.concierge(baton, "shutdown-" + UUID.randomUUID());
        }
    }

    @Test
    void closingTheContextHandsBackTheRunsItsAgentsHoldAtOnce() {
        String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        AtomicReference<String> runId = new AtomicReference<>();
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class))
                .withUserConfiguration(App.class)
                .withPropertyValues("baton.store.url=" + url, "baton.agent.lease-duration=10m",
                        "baton.agent.pickup-timeout=10m", "baton.agent.shutdown-grace=3s")
                .run(ctx -> {
                    Agent agent = ctx.getBean(Agent.class);
                    assertThat(agent.shutdownGrace()).isEqualTo(Duration.ofSeconds(3));
                    AgentResult r = TestAgents.suspendedRun(agent, "ana");
                    agent.approveToolCall(r.runId(), r.waitingCalls().get(0).toolCallId());   // claimed, not read
                    runId.set(r.runId());
                    assertThat(ctx.getBean(SnapshotStore.class).find(r.runId()).orElseThrow().status()).isEqualTo(RunStatus.RESUMING);
                });
        try (SnapshotStore store = SnapshotStores.open(url)) {
            RunSnapshot s = store.find(runId.get()).orElseThrow();
            assertThat(s.status()).as("handed back when the context closed, not after the ten-minute lease").isEqualTo(RunStatus.SUSPENDED);
            assertThat(s.leaseOwner()).isNull();
        }
    }

    @Test
    void aContextStoppedAndStartedAgainKeepsItsAgentsOpen_onlyClosingHandsBack() {
        String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class))
                .withUserConfiguration(App.class)
                .withPropertyValues("baton.store.url=" + url)
                .run(ctx -> {
                    Agent agent = ctx.getBean(Agent.class);
                    ctx.getSourceApplicationContext(org.springframework.context.ConfigurableApplicationContext.class).stop();   // e.g. Spring's test context cache pausing it
                    ctx.getSourceApplicationContext(org.springframework.context.ConfigurableApplicationContext.class).start();
                    AgentResult r = TestAgents.suspendedRun(agent, "ana");
                    assertThat(r.outcome()).as("the agent still takes runs after stop() and start()").isEqualTo(dev.baton.agent.RunOutcome.SUSPENDED);
                });
    }
}
