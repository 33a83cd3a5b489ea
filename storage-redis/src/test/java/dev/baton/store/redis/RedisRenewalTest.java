package dev.baton.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A lease renewal neither reads nor sends the payload: one script with a few short arguments (on a standalone server,
 * where it reads the run-id lookup too; see {@link RedisRoundTripTest}).
 */
class RedisRenewalTest {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisRenewalTest.class);
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Test
    void aRenewalSendsOneScriptWithoutThePayload() {
        List<String> sent = Collections.synchronizedList(new ArrayList<>());
        RedisClient client = RedisClient.create(RedisTestServer.url());
        client.addListener(new CommandListener() {
            @Override
            public void commandStarted(CommandStartedEvent event) {
                sent.add(event.getCommand().getType() + " " + event.getCommand().getArgs().toCommandString());
            }
        });
        String payload = "{\"blob\":\"" + "x".repeat(100_000) + "\"}";
        String id = "run-" + UUID.randomUUID();
        try (RedisSnapshotStore store = RedisSnapshotStore.builder(client).keyPrefix(PREFIX).build()) {
            RunSnapshot s = RunSnapshot.builder().runId(id).agentId("agent-" + UUID.randomUUID()).status(RunStatus.SUSPENDED)
                    .threadId("t").resourceId("r").createdAt(T0).suspendedAt(T0).payload(payload).summary("{\"calls\":[]}").build();
            assertThat(store.insert(s)).isTrue();
            RunSnapshot c = s.claimed("me", T0.plusSeconds(30), payload);
            assertThat(store.compareAndSet(1, c)).isTrue();
            sent.clear();
            assertThat(store.renewLease(id, 2, "me", T0.plusSeconds(45))).isTrue();
            assertThat(sent).as("the first renewal, which may load the script").isNotEmpty()
                    .allSatisfy(cmd -> assertThat(cmd).doesNotContain("xxxx").hasSizeLessThan(20_000));
            sent.clear();
            assertThat(store.renewLease(id, 3, "me", T0.plusSeconds(60))).isTrue();
            List<String> renewal = List.copyOf(sent);
            // on a standalone server the run-id lookup is read by the same script (srenew.lua, RedisAccess#oneScript)
            assertThat(renewal).hasSize(1);
            assertThat(renewal.get(0)).startsWith("EVALSHA ").doesNotContain("xxxx").hasSizeLessThan(1_000);
            c = c.renewed(T0.plusSeconds(45));
            assertThat(store.find(id)).contains(c.renewed(T0.plusSeconds(60)));
        } finally {
            client.shutdown();
        }
    }
}
