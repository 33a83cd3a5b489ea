package dev.baton.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.model.Message;
import dev.baton.model.ToolCall;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stored form of a message is core's own, fixed in a test resource: renaming a public record or
 * one of its components must not change what is stored, nor stop stored data from being read.
 */
class StoredMessageFormatTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<Message> EXPECTED = List.of(
            new Message.User("Book a flight to SF \u00e9\u4e16"),
            new Message.Assistant("Let me book.", List.of(new ToolCall("call_1_0", "bookFlight",
                    F.objectNode().put("to", "SFO").put("n", 2)))),
            new Message.ToolResult("call_1_0", "bookFlight", F.objectNode().put("booked", true), false),
            new Message.ToolResult("call_1_1", "askCity", F.textNode("Tool call was not approved by the user"), true));

    private static List<String> fixture() throws IOException {
        try (InputStream in = StoredMessageFormatTest.class.getResourceAsStream("/stored/messages-format2.jsonl")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void theFixedStoredSampleDecodesToTheSameMessages() throws IOException {
        assertThat(fixture().stream().map(MessageCodec::decodeText).toList()).isEqualTo(EXPECTED);
    }

    @Test
    void messagesAreWrittenExactlyAsTheFixedSample() throws IOException {
        assertThat(EXPECTED.stream().map(MessageCodec::encodeText).toList()).isEqualTo(fixture());
    }

    @Test
    void aRunStateStoresItsMessagesInTheSameForm() throws IOException {
        RunState s = new RunState();
        s.runId = "r";
        s.agentId = "a";
        s.messages.addAll(EXPECTED);
        String payload = SnapshotCodec.encode(s);
        for (String line : fixture()) assertThat(payload).contains(line);
    }

    @Test
    void anUnknownRoleOrAMissingFieldIsNamed() {
        assertThatThrownBy(() -> MessageCodec.decodeText("{\"role\":\"alien\"}")).hasMessageContaining("alien");
        assertThatThrownBy(() -> MessageCodec.decodeText("{\"role\":\"user\"}")).hasMessageContaining("text");
    }
}
