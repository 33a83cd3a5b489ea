package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.model.DeterministicModel;
import dev.baton.testing.TestStore;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lease heartbeat threads are JVM-wide daemons that hold no work once no claim is in flight. */
class LeaseThreadsTest {
    @Test
    void onceEveryStreamHasEndedNothingIsScheduledAndTheThreadsAreDaemons() throws Exception {
        TestStore store = new TestStore();
        Agent agent = Agent.builder("travel").store(store).pickupTimeout(Duration.ofMillis(50))
                .leaseDuration(Duration.ofMillis(300))
                .model(DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of()).build())
                .tools(Tool.builder("bookFlight").requireApproval(true).execute((in, ctx) -> {
                    Thread.sleep(250);   // long enough for heartbeats to tick
                    return "ok";
                }).build()).build();
        for (int i = 0; i < 3; i++) {
            AgentResult first = agent.generate("flight");
            assertThat(agent.approveToolCall(first.runId(), first.waitingCalls().get(0).toolCallId()).result().outcome())
                    .isEqualTo(RunOutcome.COMPLETED);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (LeaseKeeper.scheduledTasks() > 0 && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(LeaseKeeper.scheduledTasks()).isZero();
        assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> t.getName().startsWith("baton-lease"))
                .isNotEmpty().allSatisfy(t -> assertThat(t.isDaemon()).isTrue());
        agent.close();
    }
}
