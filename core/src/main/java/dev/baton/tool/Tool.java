package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.model.ToolDefinition;
import java.util.Objects;
import java.util.function.Predicate;
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
 * <p>Typed input: declare the input as a record or class with {@link ToolBuilder#input(Class)}; the
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
    private final String name;
    private final String description;
    private final JsonNode inputSchema;
    private final Predicate<JsonNode> approval;
    private final @Nullable ApprovalPolicy policy;
    private final ToolExecutor executor;
    private final java.time.@Nullable Duration waitTimeout;
    private final java.util.function.@Nullable Consumer<JsonNode> inputCheck;
    private final @Nullable JsonNode resumeSchema;

    Tool(String name, String description, JsonNode inputSchema, Predicate<JsonNode> approval,
                 @Nullable ApprovalPolicy policy, @Nullable ToolExecutor executor, java.time.@Nullable Duration waitTimeout,
                 java.util.function.@Nullable Consumer<JsonNode> inputCheck, @Nullable JsonNode resumeSchema) {
        this.inputCheck = inputCheck;
        this.resumeSchema = resumeSchema;
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
    public static ToolBuilder builder(String name) {
        return new ToolBuilder(name);
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
     * Checks the data a person sends to a call of this tool that waits for data (a resume), before
     * anything changes: against the {@linkplain ToolBuilder#resumeSchema resume schema} the tool
     * declared, the same rules as {@link #checkInput}. A tool that declared none accepts any data.
     *
     * @param data the resume data
     * @throws InvalidToolInputException naming each wrong field and the rule it breaks
     */
    public void checkResumeData(JsonNode data) {
        if (resumeSchema != null) InputSchemaCheck.check("resume data", name, resumeSchema, data);
    }

    /**
     * The JSON schema of the data a call of this tool waits for when it suspends, if the tool declared
     * one ({@link ToolBuilder#resumeSchema}): a resume is checked against it, and the HTTP API shows it
     * with the waiting call so that a client (the inbox) can say what to send.
     *
     * @return a copy of the schema, or empty
     */
    public java.util.Optional<JsonNode> resumeSchema() {
        return java.util.Optional.ofNullable(resumeSchema).map(JsonNode::deepCopy);
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
     * that throws means yes. A tool built with {@link ToolBuilder#requireApproval(ApprovalPolicy)} needs
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
}
