package dev.baton.notify;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.agent.NotificationPolicy;
import dev.baton.agent.RunOptions;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.tool.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An agent whose refunds above 100 wait for approval, and a clock the tests move. */
final class TestRuns {
    private static final Pattern AMOUNT = Pattern.compile("(\\d+)");

    private TestRuns() {
    }

    static AgentBuilder refunds(String id, SnapshotStore store, Clock clock, NotificationPolicy policy) {
        return Agent.builder(id)
                .instructions("You refund orders.")
                .model(DeterministicModel.builder()
                        .whenUserSays("refund", "refund", text -> Map.of("amount", amount(text)))
                        .build())
                .tools(Tool.builder("refund")
                        .description("Refunds an order; above 100 EUR it waits for approval.")
                        .requireApproval(input -> input.path("amount").asInt() > 100)
                        .execute((input, ctx) -> Map.of("refunded", input.path("amount").asInt()))
                        .build())
                .store(store)
                .clock(clock)
                .waitTimeout(Duration.ofHours(2))
                .notifications(policy);
    }

    /** A run of {@code agent} that waits for the approval of a refund; its id. */
    static String waitingRun(Agent agent, String resource) {
        return agent.generate("Refund 250 EUR for order A-1", RunOptions.builder().resourceId(resource).threadId(resource + "-orders").build())
                .runId();
    }

    private static int amount(String text) {
        Matcher m = AMOUNT.matcher(text);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** A clock that stands still until moved. */
    static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override public ZoneId getZone() { return ZoneOffset.UTC; }

        @Override public Clock withZone(ZoneId zone) { return this; }

        @Override public Instant instant() { return now; }
    }
}
