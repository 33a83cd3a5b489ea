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

    @Test
    void instantsInTheFormBatonWritesAreReadByHandExactlyAsTheIsoParserReadsThem() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(39);
        for (int i = 0; i < 20_000; i++) {
            Instant t = Instant.ofEpochSecond(r.nextLong(-62_167_219_200L, 253_402_300_799L), i % 3 == 0 ? 0 : r.nextInt(1_000_000_000));
            if (i % 5 == 0) t = t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
            assertThat(SnapshotCodec.IsoInstant.parse(t.toString())).as(t.toString()).isEqualTo(t);
        }
        for (String odd : List.of("2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2016-12-31T23:59:60Z",
                "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00+01:00", "2026-01-01t00:00:00z", "+12026-01-01T00:00:00Z",
                " 2026-01-01T00:00:00Z", "2026-01-01T00:00:00.1234567890Z", "1767225600", "2026-1-01T00:00:00Z")) {
            assertThat(SnapshotCodec.IsoInstant.parse(odd)).as(odd).isNull();   // Jackson's own reader decides these
        }
        assertThat(SnapshotCodec.IsoInstant.parse("2024-02-29T12:34:56.5Z")).isEqualTo(Instant.parse("2024-02-29T12:34:56.5Z"));
    }

    @Test
    void instantsInOtherFormsAreReadAndRefusedAsJacksonDoes() throws Exception {
        record At(Instant at) { }
        assertThat(SnapshotCodec.JSON.readValue("{\"at\":\"2026-01-01T01:00:00+01:00\"}", At.class).at()).isEqualTo(T);
        assertThat(SnapshotCodec.JSON.readValue("{\"at\":\"2016-12-31T23:59:60Z\"}", At.class).at())
                .isEqualTo(Instant.parse("2016-12-31T23:59:60Z"));
        assertThat(SnapshotCodec.JSON.readValue("{\"at\":1767225600}", At.class).at()).isEqualTo(T);
        assertThatThrownBy(() -> SnapshotCodec.JSON.readValue("{\"at\":\"2026-02-30T00:00:00Z\"}", At.class))
                .isInstanceOf(com.fasterxml.jackson.databind.JsonMappingException.class);
    }

    @Test
    void aPayloadInTheCurrentFormatIsReadInOnePassToWhatTheCheckedReadGives() throws Exception {
        RunState s = new RunState();
        s.runId = "run-1";
        s.agentId = "agent-1";
        s.createdAt = Instant.parse("2026-12-05T03:20:11.123456789Z");
        s.messages.add(new Message.User("book \"SFO\" \u4e16"));
        s.messages.add(new Message.Assistant("ok", List.of(new ToolCall("c1", "t",
                SnapshotCodec.JSON.createObjectNode().put("a", 1.5).put("b", "x")))));
        s.messages.add(new Message.ToolResult("c0", "t", SnapshotCodec.JSON.createArrayNode().add(1).addNull(), true));
        CallState c = new CallState();
        c.toolCallId = "c1";
        c.toolName = "t";
        c.status = CallState.Status.AWAITING_APPROVAL;
        c.expiresAt = Instant.parse("2026-12-06T00:00:00Z");
        c.approvedBy.add("ann");
        s.calls.add(c);
        s.interruption = "why";
        String payload = SnapshotCodec.encode(s);
        RunState fast = SnapshotCodec.decode(row(payload));
        // the same payload with the fields in another order takes the checked path (tree first)
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode) SnapshotCodec.JSON.readTree(payload);
        com.fasterxml.jackson.databind.JsonNode version = tree.remove("formatVersion");
        tree.set("formatVersion", version);
        assertThat(tree.toString()).doesNotStartWith("{\"formatVersion\"");
        RunState checked = SnapshotCodec.decode(row(tree.toString()));
        assertThat(SnapshotCodec.encode(fast)).isEqualTo(payload).isEqualTo(SnapshotCodec.encode(checked));
        assertThat(fast.createdAt).isEqualTo(s.createdAt);
        assertThat(fast.calls.get(0).expiresAt).isEqualTo(c.expiresAt);
        // a payload that starts as Baton's but does not bind gets the checked read's error; a repeated version too
        assertThatThrownBy(() -> SnapshotCodec.decode(row("{\"formatVersion\":2,\"runId\":\"run-1\",\"agentId\":\"agent-1\",\"calls\":7}")))
                .isInstanceOf(SnapshotFormatException.class).hasMessageContaining("does not describe a run");
        assertThatThrownBy(() -> SnapshotCodec.decode(row("{\"formatVersion\":2,\"formatVersion\":3,\"runId\":\"run-1\"}")))
                .isInstanceOf(SnapshotFormatException.class).hasMessageContaining("version 3");
        assertThatThrownBy(() -> SnapshotCodec.decode(row("{\"formatVersion\":2,\"runId\":\"run-1\"")))
                .isInstanceOf(SnapshotFormatException.class).hasMessageContaining("not valid JSON");
    }

    @Test
    void aMessageIsWrittenInASnapshotAsItsStoredFormReads() throws Exception {
        List<Message> messages = List.of(new Message.User("hi \"there\"\n\u4e16"), new Message.Assistant("", List.of()),
                new Message.Assistant("x", List.of(new ToolCall("c1", "t", SnapshotCodec.JSON.createObjectNode()
                        .put("z", 1).put("a", 1.0).set("n", SnapshotCodec.JSON.createArrayNode().add("s").addNull())),
                        new ToolCall("c2", "u", null))),
                new Message.ToolResult("c1", "t", com.fasterxml.jackson.databind.node.TextNode.valueOf("done"), false),
                new Message.ToolResult("c2", "u", com.fasterxml.jackson.databind.node.NullNode.getInstance(), true));
        for (Message m : messages) {
            assertThat(SnapshotCodec.JSON.writeValueAsString(m)).isEqualTo(MessageCodec.encodeText(m));
        }
    }

    @Test
    void aPayloadAndASummaryAreTheTextJacksonWritesWhateverTheirSize() throws Exception {
        for (int size : new int[] {10, 2_048, 200_000, 3}) {   // past 64 K the thread's buffer is let go, then used anew
            RunState s = new RunState();
            s.runId = "run-" + size;
            s.agentId = "agent-1";
            s.createdAt = T;
            s.messages.add(new Message.User("x\u00e9\"".repeat(size)));
            CallState c = new CallState();
            c.toolCallId = "c1";
            c.toolName = "t";
            c.status = CallState.Status.AWAITING_APPROVAL;
            c.args = SnapshotCodec.JSON.createObjectNode().put("big", "y".repeat(size));
            s.calls.add(c);
            SnapshotCodec.Encoded e = SnapshotCodec.encodeAll(s);
            assertThat(e.payload()).isEqualTo(SnapshotCodec.JSON.writeValueAsString(s));
            assertThat(e.summary()).isEqualTo(SnapshotCodec.JSON.writeValueAsString(RunSummary.of(s)));
        }
    }
}
