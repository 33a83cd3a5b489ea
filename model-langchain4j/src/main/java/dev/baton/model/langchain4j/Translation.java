package dev.baton.model.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.baton.model.ToolCall;
import dev.baton.model.ToolDefinition;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/** Baton's request and answer, in LangChain4j's terms and back. No agent logic: only translation. */
final class Translation {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The root keywords a LangChain4j {@code JsonObjectSchema} can carry. Providers want an object
     * at the root; others (e.g. {@code $schema}, {@code title}) are dropped there. Keywords it
     * cannot model below the root (formats, bounds, patterns) are kept as raw schema.
     */
    private static final Set<String> ROOT_KEYWORDS = Set.of("type", "description", "properties", "required",
            "additionalProperties", "$defs");

    private Translation() {
    }

    // ---- Baton -> LangChain4j ------------------------------------------------------------------

    static ChatRequest toChatRequest(ModelRequest request) {
        List<ChatMessage> messages = new ArrayList<>(request.messages().size() + 1);
        if (!request.instructions().isBlank()) messages.add(SystemMessage.from(request.instructions()));
        for (Message m : request.messages()) messages.add(toChatMessage(m));
        ChatRequest.Builder builder = ChatRequest.builder().messages(messages);
        if (!request.tools().isEmpty()) {
            List<ToolSpecification> specs = new ArrayList<>(request.tools().size());
            for (ToolDefinition t : request.tools()) specs.add(toToolSpecification(t));
            builder.toolSpecifications(specs);
        }
        return builder.build();
    }

    static ChatMessage toChatMessage(Message message) {
        if (message instanceof Message.User user) {
            return UserMessage.from(user.text());
        }
        if (message instanceof Message.Assistant assistant) {
            List<ToolExecutionRequest> calls = new ArrayList<>(assistant.toolCalls().size());
            for (ToolCall c : assistant.toolCalls()) {
                calls.add(ToolExecutionRequest.builder().id(c.toolCallId()).name(c.toolName())
                        .arguments(argumentsText(c.args())).build());
            }
            return AiMessage.builder().text(assistant.text().isEmpty() ? null : assistant.text())
                    .toolExecutionRequests(calls).build();
        }
        Message.ToolResult result = (Message.ToolResult) message;
        return ToolExecutionResultMessage.builder()
                .id(result.toolCallId())
                .toolName(result.toolName())
                .text(resultText(result.result()))
                .isError(result.isError() ? Boolean.TRUE : null)
                .build();
    }

    /** A tool result as the text the model reads: a string as itself, anything else as JSON. */
    static String resultText(JsonNode result) {
        return result.isTextual() ? result.asText() : result.toString();
    }

    private static String argumentsText(JsonNode args) {
        return args.isTextual() ? args.asText() : args.toString();
    }

    /**
     * A tool definition as a {@link ToolSpecification}: its JSON schema is read by LangChain4j's own
     * parser ({@link ToolSpecification#fromJson}), so what it can model is typed and the rest is
     * passed on as raw schema.
     *
     * @throws IllegalArgumentException if the schema is not an object schema
     */
    static ToolSpecification toToolSpecification(ToolDefinition tool) {
        JsonNode schema = tool.inputSchema();
        if (!schema.isObject()) {
            throw new IllegalArgumentException("Tool '" + tool.name() + "': its input schema must be a JSON object, got " + schema);
        }
        ObjectNode root = JSON.createObjectNode();
        String type = schema.path("type").asText("object");
        if (!type.equals("object")) {
            throw new IllegalArgumentException("Tool '" + tool.name() + "': providers need an object schema at the root"
                    + " of a tool's input, got type '" + type + "'");
        }
        for (Map.Entry<String, JsonNode> e : schema.properties()) {
            if (e.getKey().equals("definitions") && !schema.has("$defs")) {
                root.set("$defs", e.getValue()); // draft-07 name of $defs
            } else if (ROOT_KEYWORDS.contains(e.getKey())) {
                if (e.getKey().equals("additionalProperties") && !e.getValue().isBoolean()) continue;
                root.set(e.getKey(), e.getValue());
            }
        }
        root.put("type", "object");
        String rootJson = root.toString().replace("\"#/definitions/", "\"#/$defs/");
        ObjectNode spec = JSON.createObjectNode();
        spec.put("name", tool.name());
        if (!tool.description().isBlank()) spec.put("description", tool.description());
        try {
            spec.set("parameters", JSON.readTree(rootJson));
            return ToolSpecification.fromJson(JSON.writeValueAsString(spec));
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("Tool '" + tool.name() + "': its input schema cannot be given to the model: "
                    + e.getMessage(), e);
        }
    }

    // ---- LangChain4j -> Baton ------------------------------------------------------------------

    /**
     * A complete answer as chunks: its text (unless it was streamed already), then each tool call.
     *
     * @param withText false when the text was handed on as it streamed
     */
    static Stream<ModelChunk> toChunks(ChatResponse response, boolean withText) {
        AiMessage ai = response.aiMessage();
        List<ModelChunk> chunks = new ArrayList<>();
        if (ai == null) return Stream.empty();
        if (withText && ai.text() != null && !ai.text().isEmpty()) chunks.add(new ModelChunk.TextDelta(ai.text()));
        List<ToolExecutionRequest> calls = ai.toolExecutionRequests();
        for (int i = 0; i < calls.size(); i++) {
            chunks.add(new ModelChunk.ToolCallRequest(toToolCall(calls.get(i), i)));
        }
        return chunks.stream();
    }

    /**
     * A tool call. Arguments that are not JSON are kept as a JSON string, so the tool (a typed one
     * reports "expected a JSON object") and a human approving it see what the model sent.
     */
    static ToolCall toToolCall(ToolExecutionRequest request, int index) {
        // some providers (and OpenAI-compatible servers) send no id: make one that is unique in the run
        String id = request.id() == null || request.id().isBlank()
                ? "call_" + index + "_" + UUID.randomUUID().toString().substring(0, 8) : request.id();
        return new ToolCall(id, request.name(), parseArguments(request.arguments()));
    }

    static JsonNode parseArguments(@Nullable String arguments) {
        if (arguments == null || arguments.isBlank()) return JSON.createObjectNode();
        try {
            JsonNode node = JSON.readTree(arguments);
            return node == null ? JSON.createObjectNode() : node;
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(arguments);
        }
    }
}
