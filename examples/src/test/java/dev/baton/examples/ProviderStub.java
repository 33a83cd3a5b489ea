package dev.baton.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A model provider on loopback for the examples' tests: records each request and answers with
 * the next scripted list of server-sent events (the example agents' models stream).
 */
final class ProviderStub implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** One request: its path, its API key header, its JSON body. */
    record Received(String path, String authorization, String apiKey, JsonNode body) { }

    /** One server-sent event: an optional name and its data. */
    record Event(String name, String data) { }

    private final HttpServer server;
    private final ConcurrentLinkedQueue<List<Event>> answers = new ConcurrentLinkedQueue<>();
    private final List<Received> received = Collections.synchronizedList(new ArrayList<>());

    ProviderStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    ProviderStub then(List<Event> events) {
        answers.add(events);
        return this;
    }

    List<Received> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            received.add(new Received(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("x-api-key"), body));
            List<Event> events = answers.poll();
            if (events == null) {
                byte[] error = "{\"error\":{\"message\":\"stub: no answer scripted\"}}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(500, error.length);
                exchange.getResponseBody().write(error);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (Event e : events) {
                    out.write(((e.name() == null ? "" : "event: " + e.name() + "\n") + "data: " + e.data() + "\n\n")
                            .getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        }
    }

    // ---- OpenAI chat-completion chunks ---------------------------------------------------------

    private static ObjectNode delta(ObjectNode chunk) {
        return chunk.putArray("choices").addObject().put("index", 0).putNull("finish_reason").putObject("delta");
    }

    private static ObjectNode chunk() {
        return JSON.createObjectNode().put("id", "c").put("object", "chat.completion.chunk").put("created", 1).put("model", "m");
    }

    static List<Event> openAiText(String text) {
        ObjectNode c = chunk();
        delta(c).put("role", "assistant").put("content", text);
        ObjectNode end = chunk();
        end.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop").putObject("delta");
        return List.of(new Event(null, c.toString()), new Event(null, end.toString()), new Event(null, "[DONE]"));
    }

    static List<Event> openAiToolCall(String id, String name, String arguments) {
        ObjectNode c = chunk();
        ObjectNode call = delta(c).put("role", "assistant").putArray("tool_calls").addObject().put("index", 0).put("id", id)
                .put("type", "function");
        call.putObject("function").put("name", name).put("arguments", arguments);
        ObjectNode end = chunk();
        end.putArray("choices").addObject().put("index", 0).put("finish_reason", "tool_calls").putObject("delta");
        return List.of(new Event(null, c.toString()), new Event(null, end.toString()), new Event(null, "[DONE]"));
    }

    // ---- Anthropic message events --------------------------------------------------------------

    static List<Event> anthropicText(String text) {
        return List.of(
                new Event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                        + "\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}"),
                new Event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"),
                new Event("content_block_delta", JSON.createObjectNode().put("type", "content_block_delta").put("index", 0)
                        .set("delta", JSON.createObjectNode().put("type", "text_delta").put("text", text)).toString()),
                new Event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"),
                new Event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}"),
                new Event("message_stop", "{\"type\":\"message_stop\"}"));
    }
}
