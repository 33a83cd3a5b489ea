package dev.baton.model.langchain4j;

import static dev.baton.model.langchain4j.StubProvider.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.model.langchain4j.StubProvider.Answer;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Anthropic's Messages API wire format, as the stub writes it: a whole {@code message}, an
 * {@code error}, and a streamed message as named server-sent events.
 */
final class AnthropicWire {
    static final String MODEL = "claude-sonnet-4-5";

    private AnthropicWire() {
    }

    /** A {@code tool_use} block: id, tool name, input as JSON text. */
    record ToolUse(String id, String name, String input) { }

    static ToolUse toolUse(String id, String name, String input) {
        return new ToolUse(id, name, input);
    }

    static String message(String text, ToolUse... uses) {
        ObjectNode root = JSON.createObjectNode().put("id", "msg_stub").put("type", "message").put("role", "assistant")
                .put("model", MODEL);
        ArrayNode content = root.putArray("content");
        if (text != null) content.addObject().put("type", "text").put("text", text);
        for (ToolUse u : uses) {
            ObjectNode block = content.addObject().put("type", "tool_use").put("id", u.id()).put("name", u.name());
            block.set("input", parse(u.input()));
        }
        root.put("stop_reason", uses.length > 0 ? "tool_use" : "end_turn").putNull("stop_sequence");
        root.putObject("usage").put("input_tokens", 10).put("output_tokens", 5);
        return root.toString();
    }

    static Answer answer(String text, ToolUse... uses) {
        return (request, reply) -> reply.json(200, message(text, uses));
    }

    static Answer error(int status, String type, String message) {
        ObjectNode root = JSON.createObjectNode().put("type", "error");
        root.putObject("error").put("type", type).put("message", message);
        return (request, reply) -> reply.json(status, root.toString());
    }

    /** A streamed answer: text in pieces, then each tool_use with its input split into fragments. */
    static Answer stream(String[] textPieces, int fragmentLength, ToolUse... uses) {
        return (request, reply) -> {
            reply.startEvents();
            ObjectNode start = JSON.createObjectNode().put("type", "message_start");
            ObjectNode msg = start.putObject("message").put("id", "msg_stub").put("type", "message").put("role", "assistant")
                    .put("model", MODEL);
            msg.putArray("content");
            msg.putNull("stop_reason").putNull("stop_sequence");
            msg.putObject("usage").put("input_tokens", 10).put("output_tokens", 1);
            reply.event("message_start", start.toString());
            int index = 0;
            if (textPieces.length > 0) {
                ObjectNode blockStart = JSON.createObjectNode().put("type", "content_block_start").put("index", index);
                blockStart.putObject("content_block").put("type", "text").put("text", "");
                reply.event("content_block_start", blockStart.toString());
                for (String piece : textPieces) {
                    ObjectNode delta = JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
                    delta.putObject("delta").put("type", "text_delta").put("text", piece);
                    reply.event("content_block_delta", delta.toString());
                }
                reply.event("content_block_stop", JSON.createObjectNode().put("type", "content_block_stop").put("index", index).toString());
                index++;
            }
            for (ToolUse u : uses) {
                ObjectNode blockStart = JSON.createObjectNode().put("type", "content_block_start").put("index", index);
                ObjectNode block = blockStart.putObject("content_block").put("type", "tool_use").put("id", u.id()).put("name", u.name());
                block.putObject("input");
                reply.event("content_block_start", blockStart.toString());
                for (int from = 0; from < u.input().length(); from += fragmentLength) {
                    ObjectNode delta = JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
                    delta.putObject("delta").put("type", "input_json_delta")
                            .put("partial_json", u.input().substring(from, Math.min(u.input().length(), from + fragmentLength)));
                    reply.event("content_block_delta", delta.toString());
                }
                reply.event("content_block_stop", JSON.createObjectNode().put("type", "content_block_stop").put("index", index).toString());
                index++;
            }
            ObjectNode end = JSON.createObjectNode().put("type", "message_delta");
            end.putObject("delta").put("stop_reason", uses.length > 0 ? "tool_use" : "end_turn").putNull("stop_sequence");
            end.putObject("usage").put("output_tokens", 15);
            reply.event("message_delta", end.toString());
            reply.event("message_stop", "{\"type\":\"message_stop\"}");
            reply.endEvents();
        };
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
