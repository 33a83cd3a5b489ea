package dev.baton.http;

import dev.baton.agent.Agent;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** A server on a free loopback port over the test agents, with an admin, alice and bob. */
final class TestServer implements AutoCloseable {
    static final String ADMIN = "admin-token-0123456789";
    static final String ALICE = "alice-token-0123456789";
    static final String BOB = "bob-token-01234567890";
    static final String ALICE_AND_CAROL = "alice-carol-token-0123";

    final SnapshotStore store;
    final TestAgents.MutableClock clock = new TestAgents.MutableClock(Instant.parse("2026-06-01T09:00:00Z"));
    /** The concierge's model: {@code flaky.failNext(1)} makes its next model call fail. */
    TestAgents.FlakyModel flaky;
    final Agent concierge;
    final Agent other;
    final BatonHttpApi api;
    final HttpTarget.Served server;

    TestServer() {
        this(MemorySnapshotStore.create(), BatonHttpApi.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(30));
    }

    TestServer(SnapshotStore store, int maxBodyBytes, Duration requestTimeout) {
        this(store, maxBodyBytes, requestTimeout, Authenticator.bearerTokens()
                .token(ADMIN, Principal.unrestricted("admin"))
                .token(ALICE, Principal.limitedTo("alice", "alice"))
                .token(BOB, Principal.limitedTo("bob", "bob"))
                .token(ALICE_AND_CAROL, Principal.limitedTo("alice-and-carol", "alice", "carol"))
                .build());
    }

    /** Over the test agents, with another authenticator (the token constants mean nothing to it). */
    TestServer(SnapshotStore store, int maxBodyBytes, Duration requestTimeout, Authenticator authenticator) {
        this.store = store;
        this.concierge = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, clock, m -> flaky = new TestAgents.FlakyModel(m)).build();
        this.other = TestAgents.concierge("other-desk", store, clock);
        this.api = BatonHttpApi.builder()
                .agents(concierge, other)
                .authenticator(authenticator)
                .maxBodyBytes(maxBodyBytes)
                .build();
        this.server = HttpTarget.serve(api, requestTimeout);
    }

    ApiClient client(String token) {
        return new ApiClient(server.uri(), token);
    }

    ApiClient admin() {
        return client(ADMIN);
    }

    int port() {
        return server.port();
    }

    /** Starts a run at {@code at} and returns its id; it must suspend. */
    String suspend(Agent agent, String at, String resourceId, String threadId, String prompt) {
        clock.set(Instant.parse(at));
        var r = agent.generate(prompt, dev.baton.agent.RunOptions.builder().resourceId(resourceId).threadId(threadId).build());
        if (r.outcome() != dev.baton.agent.RunOutcome.SUSPENDED) throw new AssertionError("did not suspend: " + r);
        return r.runId();
    }

    @Override
    public void close() {
        server.close();
        store.close();
    }

}
