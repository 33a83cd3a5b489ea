package dev.baton.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.SnapshotFormatException;
import dev.baton.model.Message;
import dev.baton.model.ToolCall;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotCodecTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private static RunSnapshot row(String payload) {
        return RunSnapshot.builder().runId("run-1").agentId("agent-1").status(RunStatus.SUSPENDED).createdAt(T).suspendedAt(T)
                .payload(payload).summary("{}").build();
    }

    @Test
    void aRunStateRoundTripsThroughTheSnapshotFormat() {
        RunState s = new RunState();
        s.runId = "run-1";
        s.agentId = "agent-1";
        s.createdAt = T;
        s.step = 1;
        s.messages.add(new Message.User("hi \u4e16\u754c"));
        s.messages.add(new Message.Assistant("", List.of(new ToolCall("c1", "t", SnapshotCodec.JSON.createObjectNode().put("a", 1)))));
        CallState c = new CallState();
        c.toolCallId = "c1";
        c.toolName = "t";
        c.status = CallState.Status.AWAITING_APPROVAL;
        s.calls.add(c);
        String payload = SnapshotCodec.encode(s);
        assertThat(payload).startsWith("{\"formatVersion\":2,");
        RunState back = SnapshotCodec.decode(row(payload));
        assertThat(back.messages).isEqualTo(s.messages);
        assertThat(back.calls.get(0).status).isEqualTo(CallState.Status.AWAITING_APPROVAL);
        assertThat(back.createdAt).isEqualTo(T);
    }

    @Test
    void formatOneWasNeverReleasedAndIsRefusedWithTheVersionsThisBatonReads() {
        String v1 = "{\"formatVersion\":1,\"runId\":\"run-1\",\"agentId\":\"agent-1\",\"messages\":[],\"calls\":[]}";
        assertThatThrownBy(() -> SnapshotCodec.decode(row(v1))).isInstanceOf(SnapshotFormatException.class)
                .hasMessageContaining("version 1").hasMessageContaining("versions 2 to 2");
    }

    @Test
    void unreadablePayloadsNameTheRunAndWhatIsWrong() {
        assertThatThrownBy(() -> SnapshotCodec.decode(row("{oops"))).isInstanceOf(SnapshotFormatException.class)
                .hasMessageContaining("run-1").hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> SnapshotCodec.decode(row("[1,2]"))).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> SnapshotCodec.decode(row("{}"))).hasMessageContaining("no formatVersion");
        assertThatThrownBy(() -> SnapshotCodec.decode(row("{\"formatVersion\":3}"))).hasMessageContaining("version 3");
        assertThatThrownBy(() -> SnapshotCodec.decode(row("{\"formatVersion\":2,\"runId\":\"other\",\"agentId\":\"agent-1\"}")))
                .hasMessageContaining("do not match");
        assertThatThrownBy(() -> SnapshotCodec.decode(row("{\"formatVersion\":2,\"runId\":\"run-1\",\"agentId\":\"agent-1\",\"messages\":[{\"role\":\"alien\"}]}")))
                .isInstanceOf(SnapshotFormatException.class).hasMessageContaining("does not describe a run");
    }
}
