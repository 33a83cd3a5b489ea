package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Builder of {@link Tool}, made by {@link Tool#builder(String)}; {@link #input(Class)} turns it into a
 * {@link TypedToolBuilder}. Not thread-safe.
 */
public final class ToolBuilder {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private String description = "";
    private JsonNode inputSchema = defaultSchema();
    private Predicate<JsonNode> approval = input -> false;
    private @Nullable ApprovalPolicy policy;
    private @Nullable ToolExecutor executor;
    private java.time.@Nullable Duration waitTimeout;
    private @Nullable JsonNode resumeSchema;

    ToolBuilder(String name) {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name: tool names use letters, digits, '_', '.', '-' (1-128), got '" + name + "'");
        }
        this.name = name;
    }

    /**
     * The description the model reads.
     *
     * @param description what the tool does
     * @return this builder
     */
    public ToolBuilder description(String description) {
        this.description = Objects.requireNonNull(description, "description");
        return this;
    }

    /**
     * The input's JSON schema.
     *
     * @param schema the schema (copied)
     * @return this builder
     */
    public ToolBuilder inputSchema(JsonNode schema) {
        this.inputSchema = Objects.requireNonNull(schema, "inputSchema").deepCopy();
        return this;
    }

    /**
     * The input's JSON schema, as JSON text.
     *
     * @param schemaJson the schema as JSON text
     * @return this builder
     * @throws IllegalArgumentException if it is not JSON
     */
    public ToolBuilder inputSchema(String schemaJson) {
        try {
            this.inputSchema = JSON.readTree(schemaJson);
        } catch (Exception e) {
            throw new IllegalArgumentException("inputSchema: not valid JSON: " + e.getMessage(), e);
        }
        return this;
    }

    /**
     * Every call needs approval ({@code true}) or none does ({@code false}, the default).
     *
     * @param required whether calls wait for approval
     * @return this builder
     */
    public ToolBuilder requireApproval(boolean required) {
        this.approval = input -> required;
        this.policy = null;
        return this;
    }

    /**
     * Approval decided per call from its input; a predicate that throws means approval is required.
     *
     * @param predicate given a copy of the call's input
     * @return this builder
     */
    public ToolBuilder requireApproval(Predicate<JsonNode> predicate) {
        this.approval = Objects.requireNonNull(predicate, "predicate");
        this.policy = null;
        return this;
    }

    /**
     * Approval decided per call from its input and the run it belongs to (agent, run, thread,
     * resource, tool name); a policy that throws means approval is required. Replaces an
     * earlier {@code requireApproval}, as each of them replaces this one. Given before
     * {@link #input(Class)}, it still sees the raw arguments, and arguments that do not match
     * the type fail without asking anyone.
     *
     * @param policy given a copy of the call's input and the run's context; called from any
     *               thread, so it must be thread-safe
     * @return this builder
     */
    public ToolBuilder requireApproval(ApprovalPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * How long a call of this tool may wait for a decision (or data) before the wait expires; the
     * agent's {@code ExpiryPolicy} says what then happens (default: nothing, the run keeps waiting).
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public ToolBuilder waitTimeout(java.time.Duration timeout) {
        this.waitTimeout = positive(timeout);
        return this;
    }

    /**
     * The JSON schema of the data this tool waits for when it suspends ({@code ctx.suspend(...)}):
     * a resume whose data breaks it is refused before anything changes, with an
     * {@link InvalidToolInputException} naming the field (HTTP 400 {@code invalid-tool-input}), and the
     * call still waits; the HTTP API lists it with the waiting call ({@code resumeSchema}), and the inbox
     * suggests the data from it. Without one, any data is accepted and the tool checks it itself.
     *
     * @param schema an object schema, e.g. {@code {"type":"object","required":["passportNumber"],
     *               "properties":{"passportNumber":{"type":"string","minLength":4}}}}
     * @return this builder
     */
    public ToolBuilder resumeSchema(JsonNode schema) {
        this.resumeSchema = Objects.requireNonNull(schema, "resumeSchema").deepCopy();
        return this;
    }

    /**
     * {@link #resumeSchema(JsonNode)} from its JSON text.
     *
     * @param schemaJson the schema as JSON
     * @return this builder
     * @throws IllegalArgumentException if it is not valid JSON
     */
    public ToolBuilder resumeSchema(String schemaJson) {
        try {
            return resumeSchema(JSON.readTree(Objects.requireNonNull(schemaJson, "resumeSchema")));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("resumeSchema: not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * What the tool does, given the raw JSON arguments.
     *
     * @param executor what the tool does (required)
     * @return this builder
     */
    public ToolBuilder execute(ToolExecutor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
        return this;
    }

    /**
     * Declares the input as a Java type: the input schema is generated from it (replacing any
     * {@link #inputSchema}), and the typed builder's {@code execute} receives the parsed object.
     * Fields are required unless {@code Optional} or annotated {@code @Nullable}. An approval
     * predicate given before this call still sees the raw arguments.
     *
     * @throws IllegalArgumentException if the type's schema is not an object (e.g. a {@code String})
     * @param type the input type, a record or a class Jackson can bind
     * @param <T>  the input type
     * @return the typed builder
     */
    public <T> TypedToolBuilder<T> input(Class<T> type) {
        TypedToolBuilder<T> typed = new TypedToolBuilder<>(name, description, approval, TypedInput.of(name, type));
        typed.waitTimeout = waitTimeout;
        typed.resumeSchema = resumeSchema;
        ApprovalPolicy given = policy;
        if (given != null) {
            Predicate<JsonNode> valid = typed.input.approvalOfJson(args -> true);
            typed.policy = (args, run) -> valid.test(args) && given.requiresApproval(args, run);
        }
        return typed;
    }

    /**
     * {@return the tool}
     *
     * @throws NullPointerException if no executor was given
     */
    public Tool build() {
        return new Tool(name, description, inputSchema, approval, policy, executor, waitTimeout, null, resumeSchema);
    }

    private static JsonNode defaultSchema() {
        ObjectNode schema = JSON.createObjectNode();
        schema.put("type", "object");
        return schema;
    }

    static java.time.Duration positive(java.time.Duration d) {
        Objects.requireNonNull(d, "waitTimeout");
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("waitTimeout: must be positive, was " + d);
        return d;
    }
}
