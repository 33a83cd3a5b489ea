package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.memory.Memory;
import dev.baton.memory.ThreadMessage;
import dev.baton.model.Message;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Thread ids are scoped by resource (rule M6), over HTTP: a principal limited to its resources starts
 * runs on any thread id and never learns whether another tenant uses it, nor blocks another tenant by
 * taking an id first. Alice on bob's thread id and on an unused one gets the same answer; carol's run
 * on a thread id alice took first runs; each thread holds its own tenant's messages only.
 */
class ThreadScopeTest {
    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB = "bob-token-01234567890";
    private static final String CAROL = "carol-token-0123456789";

    @Test
    void aTenantNeitherLearnsNorBlocksAnotherTenantsThreadIds() {
        SnapshotStore store = MemorySnapshotStore.create();
        Agent concierge = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, Clock.systemUTC(), m -> m)
                .memory(Memory.builder().build()).build();
        BatonHttpApi api = BatonHttpApi.builder().agents(concierge).authenticator(Authenticator.bearerTokens()
                .token(ALICE, Principal.limitedTo("alice", "alice"))
                .token(BOB, Principal.limitedTo("bob", "bob"))
                .token(CAROL, Principal.limitedTo("carol", "carol"))
                .build()).build();
        try (store; HttpTarget.Served server = HttpTarget.serve(api)) {
            ApiClient alice = new ApiClient(server.uri(), ALICE);
            ApiClient bob = new ApiClient(server.uri(), BOB);
            ApiClient carol = new ApiClient(server.uri(), CAROL);
            String runs = "/agents/concierge/runs";

            assertThat(bob.postForJson(runs, "{\"prompt\":\"hello from bob\",\"threadId\":\"t1\"}").status())
                    .as("bob starts thread t1").isEqualTo(200);
            ApiClient.Response onBobs = alice.postForJson(runs, "{\"prompt\":\"hello from alice\",\"threadId\":\"t1\"}");
            ApiClient.Response onUnused = alice.postForJson(runs, "{\"prompt\":\"hello from alice\",\"threadId\":\"t-unused\"}");
            assertThat(onBobs.status()).as("rule M6: alice on the thread id bob uses: %s", onBobs.body()).isEqualTo(200);
            assertThat(onUnused.status()).as("rule M6: alice on an unused thread id").isEqualTo(onBobs.status());
            assertThat(onBobs.json().get("outcome").asText()).as("rule M6: the two answers alike")
                    .isEqualTo(onUnused.json().get("outcome").asText());
            assertThat(onBobs.body()).as("rule M6: nothing of bob's in alice's answer").doesNotContain("bob");

            assertThat(alice.postForJson(runs, "{\"prompt\":\"hello\",\"threadId\":\"t2\"}").status()).as("alice takes t2 first")
                    .isEqualTo(200);
            ApiClient.Response carols = carol.postForJson(runs, "{\"prompt\":\"hello from carol\",\"threadId\":\"t2\"}");
            assertThat(carols.status()).as("rule M6: carol on the thread id alice took first: %s", carols.body()).isEqualTo(200);

            Memory memory = concierge.memory().orElseThrow();
            assertThat(users(memory, "bob", "t1")).as("rule M6: bob's thread t1").containsExactly("hello from bob");
            assertThat(users(memory, "alice", "t1")).as("rule M6: alice's thread t1").containsExactly("hello from alice");
            assertThat(users(memory, "carol", "t2")).as("rule M6: carol's thread t2").containsExactly("hello from carol");
            assertThat(users(memory, "alice", "t2")).as("rule M6: alice's thread t2").containsExactly("hello");
        }
    }

    private static List<String> users(Memory memory, String resource, String thread) {
        return memory.listMessages(resource, thread, 100, 0).messages().stream().map(ThreadMessage::message)
                .filter(m -> m instanceof Message.User).map(m -> ((Message.User) m).text()).toList();
    }
}
