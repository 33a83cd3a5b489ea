package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.model.ToolDefinition;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A tool the model may call.
 *
 * <pre>{@code
 * Tool bookFlight = Tool.builder("bookFlight")
 *     .description("Books a flight")
 *     .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"}}}")
 *     .requireApproval(true)                       // or .requireApproval(input -> input.path("price").asInt() > 500)
 *     .execute((input, ctx) -> Map.of("booked", input.path("to").asText()))
 *     .build();
 *
 * Tool askCity = Tool.builder("askCity")
 *     .execute((input, ctx) -> ctx.resumeData() == null
 *         ? ctx.suspend(Map.of("question", "Which city?"))
 *         : Map.of("city", ctx.resumeData().path("name").asText()))
 *     .build();
 * }</pre>
 *
 * <p>Typed input: declare the input as a record or class with {@link Builder#input(Class)}; the
 * JSON schema is generated from the type, and {@code execute} receives the parsed object. Arguments
 * that do not match go back to the model as a {@code tool-error} naming each wrong field
 * ({@link InvalidToolInputException}); the tool does not run, and no human is asked to approve them.
 * <pre>{@code
 * record Flight(String to, int passengers, @Nullable String note) { }
 *
 * Tool bookFlight = Tool.builder("bookFlight")
 *     .description("Books a flight")
 *     .input(Flight.class)                         // schema: to and passengers required
 *     .requireApproval(flight -> flight.passengers() > 2)
 *     .execute((Flight in, ToolContext ctx) -> Map.of("booked", in.to()))
 *     .build();
 * }</pre>
 *
 * <p>Approval: when {@link #requiresApproval(JsonNode, ApprovalContext)} is true for a call, the run
 * suspends before the tool runs, until {@code approveToolCall} or {@code declineToolCall}. A
 * predicate or policy that throws means "approval required". An {@link ApprovalPolicy} also sees
 * the run the call belongs to:
 * <pre>{@code
 * Tool refund = Tool.builder("refund")
 *     .requireApproval((input, run) -> input.path("amount").asInt() > 100 || run.resourceId() == null)
 *     .execute((input, ctx) -> ...)
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe once built; its builders are not thread-safe. Predicates, policies
 * and executors given to a builder may be called from any thread, so they must be thread-safe.
 */
public final class Tool {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final String description;
    private final JsonNode inputSchema;
    private final Predicate<JsonNode> approval;
    private final @Nullable ApprovalPolicy policy;
    private final ToolExecutor executor;
    private final java.time.@Nullable Duration waitTimeout;
    private final java.util.function.@Nullable Consumer<JsonNode> inputCheck;

    private Tool(String name, String description, JsonNode inputSchema, Predicate<JsonNode> approval,
                 @Nullable ApprovalPolicy policy, @Nullable ToolExecutor executor, java.time.@Nullable Duration waitTimeout,
                 java.util.function.@Nullable Consumer<JsonNode> inputCheck) {
        this.inputCheck = inputCheck;
        this.name = name;
        this.description = description;
        this.inputSchema = inputSchema;
        this.approval = approval;
        this.policy = policy;
        this.executor = Objects.requireNonNull(executor, () -> "tool '" + name + "' needs execute(...)");
        this.waitTimeout = waitTimeout;
    }

    /**
     * Starts a tool; {@code name} is what the model calls it (letters, digits, {@code _ . -}).
     *
     * @param name the tool's name
     * @return the builder
     * @throws IllegalArgumentException for a name with other characters
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * Checks arguments against this tool's input, as an edited approval does before anything changes:
     * a typed tool binds them into its input type; another tool checks them against its input schema
     * (type, enum, required, properties, additionalProperties false, items, minimum/maximum, minLength/maxLength).
     *
     * @param args the arguments
     * @throws InvalidToolInputException naming each wrong field and the rule it breaks
     */
    public void checkInput(JsonNode args) {
        if (inputCheck != null) inputCheck.accept(args);
        else InputSchemaCheck.check(name, inputSchema, args);
    }

    /**
     * {@return the name the model calls it by}
     */
    public String name() {
        return name;
    }

    /**
     * {@return what it does, for the model}
     */
    public String description() {
        return description;
    }

    /** {@return the input's JSON schema: a copy, changing it changes nothing else} */
    public JsonNode inputSchema() {
        return inputSchema.deepCopy();
    }

    /**
     * {@return what it does}
     */
    public ToolExecutor executor() {
        return executor;
    }

    /**
     * How long a call of this tool may wait for its approval (or its resume data) before the wait
     * expires, or empty: the agent's (or the run's) wait timeout applies. What happens on expiry is
     * the agent's {@code ExpiryPolicy}.
     *
     * @return the timeout, or empty
     */
    public java.util.Optional<java.time.Duration> waitTimeout() {
        return java.util.Optional.ofNullable(waitTimeout);
    }

    /**
     * Whether a call with this input waits for approval, judged from the input alone. A predicate
     * that throws means yes. A tool built with {@link Builder#requireApproval(ApprovalPolicy)} needs
     * the run's context to decide, so without it the answer is yes; core asks
     * {@link #requiresApproval(JsonNode, ApprovalContext)}.
     *
     * @param input the call's input (the predicate gets a copy)
     * @return true if the call waits for approval
     */
    public boolean requiresApproval(JsonNode input) {
        if (policy != null) return true;
        try {
            return approval.test(input == null ? null : input.deepCopy());
        } catch (RuntimeException e) {
            return true;
        }
    }

    /**
     * Whether this call, in this run, waits for approval: what core asks before the tool runs. A
     * tool's {@link ApprovalPolicy} gets a copy of {@code input} and {@code context}; a tool with a
     * boolean or a predicate is judged from the input alone. A policy or predicate that throws
     * means yes.
     *
     * @param input   the call's input (the policy or predicate gets a copy)
     * @param context the run the call belongs to
     * @return true if the call waits for approval
     */
    public boolean requiresApproval(JsonNode input, ApprovalContext context) {
        Objects.requireNonNull(context, "context");
        if (policy == null) return requiresApproval(input);
        try {
            return policy.requiresApproval(input.deepCopy(), context);
        } catch (RuntimeException e) {
            return true;
        }
    }

    /**
     * The definition given to the model.
     *
     * @return a new definition
     */
    public ToolDefinition definition() {
        return new ToolDefinition(name, description, inputSchema);
    }

    @Override
    public String toString() {
        return "Tool[" + name + "]";
    }

    /** Builder of {@link Tool}. */
    public static final class Builder {
        private final String name;
        private String description = "";
        private JsonNode inputSchema = defaultSchema();
        private Predicate<JsonNode> approval = input -> false;
        private @Nullable ApprovalPolicy policy;
        private @Nullable ToolExecutor executor;
        private java.time.@Nullable Duration waitTimeout;

        private Builder(String name) {
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
        public Builder description(String description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        /**
         * The input's JSON schema.
         *
         * @param schema the schema (copied)
         * @return this builder
         */
        public Builder inputSchema(JsonNode schema) {
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
        public Builder inputSchema(String schemaJson) {
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
        public Builder requireApproval(boolean required) {
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
        public Builder requireApproval(Predicate<JsonNode> predicate) {
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
        public Builder requireApproval(ApprovalPolicy policy) {
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
        public Builder waitTimeout(java.time.Duration timeout) {
            this.waitTimeout = positive(timeout);
            return this;
        }

        /**
         * What the tool does, given the raw JSON arguments.
         *
         * @param executor what the tool does (required)
         * @return this builder
         */
        public Builder execute(ToolExecutor executor) {
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
        public <T> TypedBuilder<T> input(Class<T> type) {
            TypedBuilder<T> typed = new TypedBuilder<>(name, description, approval, TypedInput.of(name, type));
            typed.waitTimeout = waitTimeout;
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
            return new Tool(name, description, inputSchema, approval, policy, executor, waitTimeout, null);
        }

        private static JsonNode defaultSchema() {
            ObjectNode schema = JSON.createObjectNode();
            schema.put("type", "object");
            return schema;
        }
    }

    /**
     * Builder of a {@link Tool} whose input is a Java type {@code T}; made by {@link Builder#input(Class)}.
     *
     * @param <T> the input type
     */
    public static final class TypedBuilder<T> {
        private final String name;
        private String description;
        private Predicate<JsonNode> approval;
        private @Nullable ApprovalPolicy policy;
        private final TypedInput<T> input;
        private @Nullable ToolExecutor executor;
        private java.time.@Nullable Duration waitTimeout;

        private TypedBuilder(String name, String description, Predicate<JsonNode> approval, TypedInput<T> input) {
            this.name = name;
            this.description = description;
            this.input = input;
            this.approval = input.approvalOfJson(approval);
        }

        /**
         * The description the model reads.
         *
         * @param description what the tool does
         * @return this builder
         */
        public TypedBuilder<T> description(String description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        /**
         * Every valid call needs approval ({@code true}) or none does ({@code false}, the default).
         *
         * @param required whether valid calls wait for approval
         * @return this builder
         */
        public TypedBuilder<T> requireApproval(boolean required) {
            this.approval = input.approval(required);
            this.policy = null;
            return this;
        }

        /**
         * Approval decided per call from its parsed input; a predicate that throws means approval is required.
         *
         * @param predicate given the parsed input
         * @return this builder
         */
        public TypedBuilder<T> requireApproval(Predicate<? super T> predicate) {
            this.approval = input.approvalOfTyped(predicate);
            this.policy = null;
            return this;
        }

        /**
         * How long a call of this tool may wait for a decision (or data); see {@link Builder#waitTimeout}.
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public TypedBuilder<T> waitTimeout(java.time.Duration timeout) {
            this.waitTimeout = positive(timeout);
            return this;
        }

        /**
         * What the tool does, given the checked and parsed input.
         *
         * @param executor what the tool does (required)
         * @return this builder
         */
        public TypedBuilder<T> execute(TypedToolExecutor<? super T> executor) {
            this.executor = input.executor(executor);
            return this;
        }

        /** {@return the generated input schema, as the model will see it: a copy} */
        public JsonNode inputSchema() {
            return input.schema().deepCopy();
        }

        /**
         * {@return the tool}
         *
         * @throws NullPointerException if no executor was given
         */
        public Tool build() {
            return new Tool(name, description, input.schema().deepCopy(), approval, policy, executor, waitTimeout, input::bind);
        }
    }

    private static java.time.Duration positive(java.time.Duration d) {
        Objects.requireNonNull(d, "waitTimeout");
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("waitTimeout: must be positive, was " + d);
        return d;
    }
}
