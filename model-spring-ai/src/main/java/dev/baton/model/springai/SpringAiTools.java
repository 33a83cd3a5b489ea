package dev.baton.model.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.tool.ApprovalPolicy;
import dev.baton.tool.InvalidToolInputException;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolBuilder;
import dev.baton.tool.ToolContext;
import dev.baton.tool.ToolExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;

/**
 * Spring AI tools as Baton tools: the {@code @Tool} methods of your beans (Spring AI's
 * {@code org.springframework.ai.tool.annotation.Tool}), or any {@link ToolCallback} (an MCP
 * client's, a {@code FunctionToolCallback}, your own), each with the input schema Spring AI made
 * for it, and approvals set from outside, without touching their code:
 *
 * <pre>{@code
 * class RefundService {
 *     @Tool(description = "Refunds an order")
 *     String refund(String orderId, int amountCents) { ... }
 *
 *     @Tool(description = "Looks an order up")
 *     Order order(String orderId) { ... }
 * }
 *
 * List<Tool> tools = SpringAiTools.from(refundService)
 *     .requireApproval("refund", input -> input.path("amountCents").asInt() > 10_000)
 *     .build();                                        // order: no approval
 *
 * Agent agent = Agent.builder("support").model(SpringAiModel.streaming(chatModel)).tools(tools).build();
 * }</pre>
 *
 * <p>A call runs as Baton's own typed tools do. Its arguments are first checked against the
 * tool's JSON schema ({@code required}, types, enums, {@code additionalProperties: false}, nested
 * objects and {@code $defs}, bounds); arguments that do not match are refused before anything runs:
 * nobody is asked to approve them, the tool is not called, and the model gets a {@code tool-error}
 * naming each wrong field ({@link InvalidToolInputException}), as for a typed Baton tool. A call
 * that needs approval waits for it; then Spring AI's {@code ToolCallback.call(json, toolContext)}
 * runs with the arguments as JSON text. The {@code ToolContext} holds the call's identity under
 * {@link #AGENT_ID}, {@link #RUN_ID}, {@link #TOOL_CALL_ID}, {@link #THREAD_ID},
 * {@link #RESOURCE_ID}, {@link #ATTEMPT} and {@link #IDEMPOTENCY_KEY}, plus the entries given to
 * {@link Builder#toolContext}. The result (JSON text, as Spring AI returns it) becomes the tool's
 * JSON result, or a string if it is not JSON; an exception from the tool (unwrapped from Spring
 * AI's {@code ToolExecutionException}) becomes a {@code tool-error} with its message, and the run
 * goes on. Spring AI's {@code returnDirect} is not honoured: Baton always gives the result back to
 * the model.
 *
 * <p>Thread-safety: the built tools are immutable and thread-safe, as thread-safe as the Spring AI
 * tools they call (a bean's methods are called concurrently by concurrent runs). Builders are not.
 */
public final class SpringAiTools {
    /** {@code ToolContext} key of the agent's id (a {@code String}). */
    public static final String AGENT_ID = "baton.agentId";
    /** {@code ToolContext} key of the run's id (a {@code String}). */
    public static final String RUN_ID = "baton.runId";
    /** {@code ToolContext} key of the call's id (a {@code String}). */
    public static final String TOOL_CALL_ID = "baton.toolCallId";
    /** {@code ToolContext} key of the run's thread (a {@code String}; absent when the run has none). */
    public static final String THREAD_ID = "baton.threadId";
    /** {@code ToolContext} key of the run's resource, typically the user (a {@code String}; absent when none). */
    public static final String RESOURCE_ID = "baton.resourceId";
    /** {@code ToolContext} key of which start of this call this is (an {@code Integer}, from 1; more after a crash). */
    public static final String ATTEMPT = "baton.attempt";
    /** {@code ToolContext} key of a key that is the same for every attempt of this call (a {@code String}): pass it on to make a retry harmless. */
    public static final String IDEMPOTENCY_KEY = "baton.idempotencyKey";

    private static final ObjectMapper JSON = new ObjectMapper();

    private SpringAiTools() {
    }

    /**
     * Starts from Spring AI tools. Each source is one of:
     * <ul>
     *   <li>a {@link ToolCallback} (or an array or collection of them);</li>
     *   <li>a {@link ToolCallbackProvider} (an MCP client's tools, a {@code MethodToolCallbackProvider});</li>
     *   <li>any other object: its {@code @Tool} methods ({@code MethodToolCallbackProvider}).</li>
     * </ul>
     *
     * @param sources beans with {@code @Tool} methods, tool callbacks, providers
     * @return a builder of the tools, none needing approval until said
     * @throws IllegalArgumentException if a source has no tools, or two tools have one name
     */
    public static Builder from(Object... sources) {
        Objects.requireNonNull(sources, "sources");
        List<ToolCallback> callbacks = new ArrayList<>();
        for (Object source : sources) collect(source, callbacks);
        return new Builder(callbacks);
    }

    private static void collect(@Nullable Object source, List<ToolCallback> into) {
        if (source == null) throw new IllegalArgumentException("SpringAiTools.from: a source is null");
        if (source instanceof ToolCallback callback) {
            into.add(callback);
        } else if (source instanceof ToolCallbackProvider provider) {
            for (ToolCallback c : provider.getToolCallbacks()) into.add(c);
        } else if (source instanceof ToolCallback[] array) {
            for (ToolCallback c : array) collect(c, into);
        } else if (source instanceof Collection<?> collection) {
            for (Object o : collection) collect(o, into);
        } else {
            try {
                for (ToolCallback c : MethodToolCallbackProvider.builder().toolObjects(source).build().getToolCallbacks()) into.add(c);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("SpringAiTools.from: " + source.getClass().getName() + " is neither a ToolCallback,"
                        + " a ToolCallbackProvider nor an object with @Tool methods (" + e.getMessage() + ")", e);
            }
        }
    }

    /**
     * Builder of the Baton tools of some Spring AI tools; made by {@link SpringAiTools#from}. Each
     * approval setting replaces an earlier one for the same tool. Not thread-safe.
     */
    public static final class Builder {
        private final Map<String, ToolCallback> callbacks = new LinkedHashMap<>();
        private final Map<String, Approval> approvals = new LinkedHashMap<>();
        private final Map<String, Duration> waitTimeouts = new LinkedHashMap<>();
        private final Map<String, Object> toolContext = new LinkedHashMap<>();

        private Builder(List<ToolCallback> from) {
            List<String> duplicates = new ArrayList<>();
            for (ToolCallback c : from) {
                String name = Objects.requireNonNull(c.getToolDefinition(), "tool definition").name();
                if (callbacks.putIfAbsent(name, c) != null) duplicates.add(name);
            }
            if (!duplicates.isEmpty()) {
                throw new IllegalArgumentException("SpringAiTools.from: tool names must be unique, these come twice: " + duplicates);
            }
        }

        /** {@return the names of the tools, in the order of their sources} */
        public List<String> toolNames() {
            return List.copyOf(callbacks.keySet());
        }

        /**
         * Every valid call of these tools waits for approval.
         *
         * @param toolNames names of tools of this builder
         * @return this builder
         * @throws IllegalArgumentException for a name that is not one of {@link #toolNames()}
         */
        public Builder requireApproval(String... toolNames) {
            for (String name : toolNames) approvals.put(known(name), new Approval(null, null));
            return this;
        }

        /**
         * Every valid call of every tool of this builder waits for approval.
         *
         * @return this builder
         */
        public Builder requireApprovalForAll() {
            for (String name : callbacks.keySet()) approvals.put(name, new Approval(null, null));
            return this;
        }

        /**
         * A valid call of this tool waits for approval when the predicate says so; a predicate that
         * throws means approval is required. Invalid arguments never reach it.
         *
         * @param toolName  the name of a tool of this builder
         * @param predicate given a copy of the call's arguments (checked against the schema)
         * @return this builder
         * @throws IllegalArgumentException for a name that is not one of {@link #toolNames()}
         */
        public Builder requireApproval(String toolName, Predicate<JsonNode> predicate) {
            approvals.put(known(toolName), new Approval(Objects.requireNonNull(predicate, "predicate"), null));
            return this;
        }

        /**
         * A valid call of this tool waits for approval when the policy, which also sees the run
         * (agent, run, thread, resource), says so; a policy that throws means approval is required.
         * Invalid arguments never reach it.
         *
         * @param toolName the name of a tool of this builder
         * @param policy   thread-safe, quick and free of side effects
         * @return this builder
         * @throws IllegalArgumentException for a name that is not one of {@link #toolNames()}
         */
        public Builder requireApproval(String toolName, ApprovalPolicy policy) {
            approvals.put(known(toolName), new Approval(null, Objects.requireNonNull(policy, "policy")));
            return this;
        }

        /**
         * How long a call of this tool may wait for its approval before the wait expires (the
         * agent's {@code ExpiryPolicy} says what then happens).
         *
         * @param toolName the name of a tool of this builder
         * @param timeout  a positive duration
         * @return this builder
         * @throws IllegalArgumentException for a name that is not one of {@link #toolNames()}, or a timeout that is not positive
         */
        public Builder waitTimeout(String toolName, Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("waitTimeout: must be positive, was " + timeout);
            waitTimeouts.put(known(toolName), timeout);
            return this;
        }

        /**
         * An entry of the Spring AI {@code ToolContext} of every call, besides the call's identity
         * ({@link SpringAiTools#RUN_ID} and the others).
         *
         * @param key   a key not starting with {@code baton.}
         * @param value the value (shared by every call: immutable or thread-safe)
         * @return this builder
         * @throws IllegalArgumentException for a key starting with {@code baton.}
         */
        public Builder toolContext(String key, Object value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            if (key.startsWith("baton.")) throw new IllegalArgumentException("toolContext: keys starting with 'baton.' are Baton's, got '" + key + "'");
            toolContext.put(key, value);
            return this;
        }

        /**
         * {@return the Baton tools, one per Spring AI tool, in the order of {@link #toolNames()}}
         *
         * @throws IllegalArgumentException if a tool's name is not a Baton tool name or its schema is not JSON
         */
        public List<Tool> build() {
            List<Tool> tools = new ArrayList<>(callbacks.size());
            Map<String, Object> context = Map.copyOf(toolContext);
            for (Map.Entry<String, ToolCallback> e : callbacks.entrySet()) {
                tools.add(toTool(e.getValue(), approvals.get(e.getKey()), waitTimeouts.get(e.getKey()), context));
            }
            return List.copyOf(tools);
        }

        private String known(String toolName) {
            Objects.requireNonNull(toolName, "toolName");
            if (!callbacks.containsKey(toolName)) {
                throw new IllegalArgumentException("No Spring AI tool named '" + toolName + "'; the tools are " + callbacks.keySet());
            }
            return toolName;
        }
    }

    /** How calls of one tool are approved: every valid call (both null), by predicate, or by policy. */
    private record Approval(@Nullable Predicate<JsonNode> predicate, @Nullable ApprovalPolicy policy) { }

    private static Tool toTool(ToolCallback callback, @Nullable Approval approval, @Nullable Duration waitTimeout,
                               Map<String, Object> context) {
        ToolDefinition definition = callback.getToolDefinition();
        String name = definition.name();
        JsonNode schema;
        try {
            schema = JSON.readTree(definition.inputSchema());
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("Spring AI tool '" + name + "': its input schema is not JSON: " + e.getMessage(), e);
        }
        // the schema check Baton applies to edited approvals, used here before approval and before the call
        Tool schemaCheck = Tool.builder(name).inputSchema(schema).execute((input, ctx) -> null).build();
        Predicate<JsonNode> valid = args -> {
            try {
                schemaCheck.checkInput(args);
                return true;
            } catch (InvalidToolInputException invalid) {
                return false;
            }
        };
        ToolBuilder builder = Tool.builder(name).description(definition.description() == null ? "" : definition.description())
                .inputSchema(schema).execute(new CallbackExecutor(callback, schemaCheck, context));
        if (approval != null) {
            Predicate<JsonNode> predicate = approval.predicate();
            ApprovalPolicy policy = approval.policy();
            if (policy != null) builder.requireApproval((args, run) -> valid.test(args) && policy.requiresApproval(args, run));
            else if (predicate != null) builder.requireApproval(args -> valid.test(args) && predicate.test(args));
            else builder.requireApproval(valid);
        }
        if (waitTimeout != null) builder.waitTimeout(waitTimeout);
        return builder.build();
    }

    /** Checks the arguments, then calls the Spring AI tool with them as JSON text and the call's context. */
    private record CallbackExecutor(ToolCallback callback, Tool schemaCheck, Map<String, Object> context) implements ToolExecutor {
        @Override
        public @Nullable Object execute(JsonNode input, ToolContext ctx) throws Exception {
            schemaCheck.checkInput(input);   // InvalidToolInputException: the model sees each wrong field
            String result;
            try {
                result = callback.call(input.toString(), new org.springframework.ai.chat.model.ToolContext(contextOf(ctx)));
            } catch (ToolExecutionException e) {
                // Spring AI wraps what the tool threw: the model should read the tool's own words
                if (e.getCause() instanceof Exception cause) throw cause;
                throw e;
            }
            return result == null ? null : parseResult(result);
        }

        private Map<String, Object> contextOf(ToolContext ctx) {
            Map<String, Object> map = new LinkedHashMap<>(context);
            map.put(AGENT_ID, ctx.agentId());
            map.put(RUN_ID, ctx.runId());
            map.put(TOOL_CALL_ID, ctx.toolCallId());
            if (ctx.threadId() != null) map.put(THREAD_ID, ctx.threadId());
            if (ctx.resourceId() != null) map.put(RESOURCE_ID, ctx.resourceId());
            map.put(ATTEMPT, ctx.attempt());
            map.put(IDEMPOTENCY_KEY, ctx.idempotencyKey());
            return map;
        }
    }

    /** A tool's result: JSON text as JSON, anything else as a string. */
    static JsonNode parseResult(String result) {
        try {
            JsonNode node = JSON.readTree(result);
            return node == null ? TextNode.valueOf(result) : node;
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(result);
        }
    }
}
