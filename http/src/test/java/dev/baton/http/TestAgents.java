package dev.baton.http;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.baton.store.SnapshotStore;
import dev.baton.tool.Tool;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The agents the HTTP tests serve: a concierge whose tools wait for approval or for data, and others. */
final class TestAgents {
    static final String CONCIERGE = "concierge";

    private static final Pattern DESTINATION = Pattern.compile("(?i)\\bto ([\\p{L}]+)");
    private static final Pattern AMOUNT = Pattern.compile("(\\d+)");

    private TestAgents() {
    }

    /** bookFlight (always approval), refund (approval above 100), askPassportNumber (waits for data). */
    static Agent concierge(String id, SnapshotStore store, Clock clock) {
        return conciergeBuilder(id, store, clock, m -> m).build();
    }

    /** The concierge, its model wrapped by {@code wrap} (e.g. in a {@link FlakyModel}), to build further. */
    static AgentBuilder conciergeBuilder(String id, SnapshotStore store, Clock clock, UnaryOperator<LanguageModel> wrap) {
        return Agent.builder(id)
                .instructions("You book flights, refund orders and collect passport numbers.")
                .model(wrap.apply(DeterministicModel.builder()
                        .whenUserSays("flight", "bookFlight", text -> Map.of("to", match(DESTINATION, text, "somewhere")))
                        .whenUserSays("refund", "refund", text -> ordered("amount", Integer.parseInt(match(AMOUNT, text, "0")), "order", "A-1"))
                        .whenUserSays("passport", "askPassportNumber", text -> Map.of("purpose", text))
                        .build()))
                .tools(bookFlight(), refund(), askPassportNumber())
                .store(store)
                .clock(clock);
    }

    /** A model that fails its next {@link #failNext} calls as a provider that is down would, then answers again. */
    static final class FlakyModel implements LanguageModel {
        private final LanguageModel delegate;
        private final AtomicInteger failures = new AtomicInteger();

        FlakyModel(LanguageModel delegate) {
            this.delegate = delegate;
        }

        /** The next {@code n} calls fail. */
        void failNext(int n) {
            failures.set(n);
        }

        @Override
        public Stream<ModelChunk> stream(ModelRequest request) {
            if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("provider answered 503 Service Unavailable");
            }
            return delegate.stream(request);
        }
    }

    static Agent concierge(SnapshotStore store) {
        return concierge(CONCIERGE, store, Clock.systemUTC());
    }

    /** An agent whose tool {@code launch} needs approval and, once approved, waits for {@code release}. */
    static Agent gated(String id, SnapshotStore store, java.util.concurrent.CountDownLatch started,
                       java.util.concurrent.CountDownLatch release) {
        Tool launch = Tool.builder("launch")
                .description("Launches; waits for approval, then for the test.")
                .requireApproval(true)
                .execute((input, ctx) -> {
                    started.countDown();
                    if (!release.await(30, java.util.concurrent.TimeUnit.SECONDS)) throw new IllegalStateException("never released");
                    return Map.of("launched", true);
                })
                .build();
        return Agent.builder(id)
                .model(DeterministicModel.builder().whenUserSays("launch", "launch", Map.of()).build())
                .tools(launch)
                .store(store)
                .build();
    }

    /** A supervisor that hands flight requests to {@code desk} (its tool {@code agent-<desk>}). */
    static Agent supervisor(String id, Agent desk, SnapshotStore store, Clock clock) {
        return Agent.builder(id)
                .instructions("You supervise; flights go to the desk.")
                .model(DeterministicModel.builder()
                        .whenUserSays("flight", "agent-" + desk.id(), text -> Map.of("prompt", text))
                        .build())
                .subagents(desk)
                .store(store)
                .clock(clock)
                .build();
    }

    static Tool bookFlight() {
        return Tool.builder("bookFlight")
                .description("Books a flight; every booking waits for approval.")
                .requireApproval(true)
                .execute((input, ctx) -> ordered("booked", input.path("to").asText(), "confirmation", "BK-1"))
                .build();
    }

    static Tool refund() {
        return Tool.builder("refund")
                .description("Refunds an order; above 100 EUR it waits for approval.")
                .requireApproval(input -> input.path("amount").asInt() > 100)
                .execute((input, ctx) -> ordered("refunded", input.path("amount").asInt(), "order", input.path("order").asText()))
                .build();
    }

    static Tool askPassportNumber() {
        return Tool.builder("askPassportNumber")
                .description("Asks for a passport number; the run waits for it.")
                .execute((input, ctx) -> {
                    if (ctx.resumeData() == null) return ctx.suspend(Map.of("question", "What is your passport number?"));
                    String number = ctx.resumeData().path("passportNumber").asText();
                    return Map.of("passportOnFile", "*****" + number.substring(Math.max(0, number.length() - 3)));
                })
                .build();
    }

    private static String match(Pattern p, String text, String fallback) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1) : fallback;
    }

    static Map<String, Object> ordered(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    /** A clock the test moves. */
    static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant start) {
            this.now = start;
        }

        void set(Instant t) {
            now = t;
        }

        @Override public ZoneId getZone() { return ZoneOffset.UTC; }

        @Override public Clock withZone(ZoneId zone) { return this; }

        @Override public Instant instant() { return now; }
    }
}
