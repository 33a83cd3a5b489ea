package dev.baton.model.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.baton.model.ToolCall;
import dev.baton.model.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.tool.ToolCallback;

/**
 * Baton's request and answer, in Spring AI's terms and back. No agent logic: only translation.
 * JSON crosses into Spring AI as text (tool schemas, call arguments, results), so Baton's Jackson 2
 * and Spring AI 2's Jackson 3 never meet.
 */
final class Translation {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Translation() {
    }

    // ---- Baton -> Spring AI --------------------------------------------------------------------

    static Prompt toPrompt(ModelRequest request, ChatModel model) {
        List<org.springframework.ai.chat.messages.Message> messages = new ArrayList<>(request.messages().size() + 1);
        if (!request.instructions().isBlank()) messages.add(new SystemMessage(request.instructions()));
        for (Message m : request.messages()) messages.add(toMessage(m));
        List<ToolCallback> tools = new ArrayList<>(request.tools().size());
        for (ToolDefinition t : request.tools()) tools.add(toToolCallback(t));
        return new Prompt(messages, SpringAiLine.requestOptions(model, tools));
    }

    static org.springframework.ai.chat.messages.Message toMessage(Message message) {
        if (message instanceof Message.User user) {
            return new UserMessage(user.text());
        }
        if (message instanceof Message.Assistant assistant) {
            List<AssistantMessage.ToolCall> calls = new ArrayList<>(assistant.toolCalls().size());
            for (ToolCall c : assistant.toolCalls()) {
                calls.add(new AssistantMessage.ToolCall(c.toolCallId(), "function", c.toolName(), jsonText(c.args())));
            }
            // no empty text block: Anthropic refuses one next to tool calls
            return AssistantMessage.builder().content(assistant.text().isEmpty() ? null : assistant.text()).toolCalls(calls).build();
        }
        Message.ToolResult result = (Message.ToolResult) message;
        // Spring AI's ToolResponse has no error flag: a tool error or a decline reason goes as its text
        return ToolResponseMessage.builder()
                .responses(List.of(new ToolResponseMessage.ToolResponse(result.toolCallId(), result.toolName(),
                        jsonText(result.result()))))
                .build();
    }

    /** A result or arguments as the text the model reads: a string as itself, anything else as JSON. */
    static String jsonText(JsonNode node) {
        return node.isTextual() ? node.asText() : node.toString();
    }

    /**
     * A tool definition as Spring AI describes it to the model, its JSON schema passed on as it is.
     *
     * @throws IllegalArgumentException if the schema is not an object schema (providers need one)
     */
    static ToolCallback toToolCallback(ToolDefinition tool) {
        JsonNode schema = tool.inputSchema();
        if (!schema.isObject() || !schema.path("type").asText("object").equals("object")) {
            throw new IllegalArgumentException("Tool '" + tool.name() + "': providers need an object schema at the root"
                    + " of a tool's input, got " + schema);
        }
        return new DescribedTool(tool.name(), tool.description(), schema.toString());
    }

    // ---- Spring AI -> Baton --------------------------------------------------------------------

    /**
     * One answer (or one streamed piece of it) as chunks: its text, then each tool call not seen yet.
     *
     * @param seenCallIds ids of the calls already handed on in this answer; the new ones are added
     */
    static List<ModelChunk> toChunks(ChatResponse response, Set<String> seenCallIds) {
        List<ModelChunk> chunks = new ArrayList<>();
        // every generation: Spring AI 1.x's Anthropic model puts the text and the tool calls of one answer in two
        for (Generation generation : response.getResults()) {
            AssistantMessage output = generation.getOutput();
            if (output == null) continue;
            String text = output.getText();
            if (text != null && !text.isEmpty()) chunks.add(new ModelChunk.TextDelta(text));
            for (AssistantMessage.ToolCall c : output.getToolCalls()) {
                ToolCall call = toToolCall(c, seenCallIds.size());
                if (seenCallIds.add(call.toolCallId())) chunks.add(new ModelChunk.ToolCallRequest(call));
            }
        }
        return chunks;
    }

    /**
     * A tool call. Arguments that are not JSON are kept as a JSON string, so the tool (a typed one
     * reports "expected a JSON object") and a person approving it see what the model sent.
     */
    static ToolCall toToolCall(AssistantMessage.ToolCall call, int index) {
        // some providers (and OpenAI-compatible servers) send no id: make one that is unique in the run
        String id = call.id() == null || call.id().isBlank()
                ? "call_" + index + "_" + UUID.randomUUID().toString().substring(0, 8) : call.id();
        return new ToolCall(id, call.name(), parseArguments(call.arguments()));
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
