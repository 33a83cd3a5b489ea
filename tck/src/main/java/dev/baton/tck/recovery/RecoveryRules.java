package dev.baton.tck.recovery;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.MutableClock;
import dev.baton.tck.support.StoreRules;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every rule group of {@code RecoveryContract} works with: the store of the running test,
 * opened before it and closed after it; a clock the test moves; an agent id of its own; a booking
 * tool whose executions are counted.
 */
abstract class RecoveryRules extends StoreRules {
    final MutableClock clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
    final String agentId = uniqueId("tck-recovery");
    final AtomicInteger bookings = new AtomicInteger();

    RecoveryRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    static final Duration LEASE = Duration.ofMinutes(10);

    Tool bookFlight(CountDownLatch entered, CountDownLatch release) {
        return Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            entered.countDown();
            release.await();
            bookings.incrementAndGet();
            return Map.of("booked", "SFO", "attempt", ctx.attempt());
        }).build();
    }

    Tool bookFlight() {
        CountDownLatch open = new CountDownLatch(0);
        return bookFlight(new CountDownLatch(1), open);
    }

    LanguageModel rules() {
        return DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "SFO")).build();
    }

    AgentBuilder agentBuilder(SnapshotStore s, Tool... tools) {
        return Agent.builder(agentId).model(rules()).tools(tools.length == 0 ? new Tool[] {bookFlight()} : tools)
                .store(s).clock(clock).instanceId("tck-" + agentId);
    }

    AgentResult suspend(Agent agent) {
        clock.advance(Duration.ofSeconds(1));
        AgentResult r = agent.generate("Book a flight", RunOptions.builder().threadId("t").resourceId("u").build());
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        return r;
    }

    static String callId(AgentResult r) {
        return r.waitingCalls().get(0).toolCallId();
    }

    /** Polls (bounded, real time) until {@code condition} holds. */
    static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting until " + what);
            Thread.sleep(20);
        }
    }
}
