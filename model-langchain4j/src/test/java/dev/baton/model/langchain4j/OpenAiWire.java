package dev.baton.model.langchain4j;

import static dev.baton.model.langchain4j.StubProvider.JSON;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.model.langchain4j.StubProvider.Answer;
import java.util.ArrayList;
import java.util.List;

/**
 * The OpenAI chat-completions wire format, as the stub writes it: whole answers
 * ({@code chat.completion}) and streamed ones ({@code chat.completion.chunk} server-sent events
 * ending with {@code [DONE]}).
 */
final class OpenAiWire {
    static final String MODEL = "gpt-4o-mini";

    private OpenAiWire() {
    }

    /** A tool call the stub's model makes: id, tool name, arguments as JSON text. */
    record Call(String id, String name, String arguments) { }

    static Call call(String id, String name, String arguments) {
        return new Call(id, name, arguments);
    }

    // ---- whole answers -------------------------------------------------------------------------

    static String completion(String text, Call... calls) {
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        if (text == null) message.putNull("content");
        else message.put("content", text);
        if (calls.length > 0) {
            ArrayNode toolCalls = message.putArray("tool_calls");
            for (Call c : calls) {
                ObjectNode tc = toolCalls.addObject().put("id", c.id()).put("type", "function");
                tc.putObject("function").put("name", c.name()).put("arguments", c.arguments());
            }
        }
        ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-stub").put("object", "chat.completion")
                .put("created", 1_700_000_000L).put("model", MODEL);
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.put("finish_reason", calls.length > 0 ? "tool_calls" : "stop");
        root.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
        return root.toString();
    }

    static Answer answer(String text, Call... calls) {
        return (request, reply) -> reply.json(200, completion(text, calls));
    }

    static Answer error(int status, String type, String message, String... headers) {
        String body = JSON.createObjectNode().set("error", JSON.createObjectNode().put("message", message).put("type", type)
                .putNull("param").put("code", type)).toString();
        return (request, reply) -> reply.json(status, body, headers);
    }

    // ---- streamed answers ----------------------------------------------------------------------

    private static ObjectNode chunk() {
        return JSON.createObjectNode().put("id", "chatcmpl-stub").put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000L).put("model", MODEL);
    }

    static String roleChunk() {
        ObjectNode c = chunk();
        c.putArray("choices").addObject().put("index", 0).putNull("finish_reason")
                .putObject("delta").put("role", "assistant").put("content", "");
        return c.toString();
    }

    static String textChunk(String text) {
        ObjectNode c = chunk();
        c.putArray("choices").addObject().put("index", 0).putNull("finish_reason").putObject("delta").put("content", text);
        return c.toString();
    }

    /** The first fragment of the {@code index}-th tool call: its id and name, no arguments yet. */
    static String toolCallStart(int index, String id, String name) {
        ObjectNode c = chunk();
        ObjectNode tc = c.putArray("choices").addObject().put("index", 0).putNull("finish_reason")
                .putObject("delta").putArray("tool_calls").addObject().put("index", index).put("id", id).put("type", "function");
        tc.putObject("function").put("name", name).put("arguments", "");
        return c.toString();
    }

    /** A further fragment of the {@code index}-th tool call's arguments. */
    static String toolCallArguments(int index, String fragment) {
        ObjectNode c = chunk();
        c.putArray("choices").addObject().put("index", 0).putNull("finish_reason")
                .putObject("delta").putArray("tool_calls").addObject().put("index", index)
                .putObject("function").put("arguments", fragment);
        return c.toString();
    }

    static String finishChunk(String reason) {
        ObjectNode c = chunk();
        ObjectNode choice = c.putArray("choices").addObject().put("index", 0).put("finish_reason", reason);
        choice.putObject("delta");
        return c.toString();
    }

    static String usageChunk() {
        ObjectNode c = chunk();
        c.putArray("choices");
        c.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
        return c.toString();
    }

    /** The events of a streamed text answer, one chunk per piece. */
    static List<String> streamedText(String... pieces) {
        List<String> events = new ArrayList<>();
        events.add(roleChunk());
        for (String p : pieces) events.add(textChunk(p));
        events.add(finishChunk("stop"));
        events.add(usageChunk());
        events.add("[DONE]");
        return events;
    }

    /**
     * The events of a streamed answer calling tools, each call's arguments split into fragments of
     * {@code fragmentLength} characters, the calls one after another as OpenAI sends them.
     */
    static List<String> streamedCalls(int fragmentLength, Call... calls) {
        List<String> events = new ArrayList<>();
        events.add(roleChunk());
        for (int i = 0; i < calls.length; i++) {
            events.add(toolCallStart(i, calls[i].id(), calls[i].name()));
            String args = calls[i].arguments();
            for (int from = 0; from < args.length(); from += fragmentLength) {
                events.add(toolCallArguments(i, args.substring(from, Math.min(args.length(), from + fragmentLength))));
            }
        }
        events.add(finishChunk("tool_calls"));
        events.add(usageChunk());
        events.add("[DONE]");
        return events;
    }

    static Answer stream(List<String> events) {
        return (request, reply) -> {
            reply.startEvents();
            for (String e : events) reply.data(e);
            reply.endEvents();
        };
    }
}
