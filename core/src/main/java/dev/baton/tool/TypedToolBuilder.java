package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Builder of a {@link Tool} whose input is a Java type {@code T}; made by {@link ToolBuilder#input(Class)}.
 *
 * @param <T> the input type
 */
public final class TypedToolBuilder<T> {
    private final String name;
    private String description;
    private Predicate<JsonNode> approval;
    @Nullable ApprovalPolicy policy;
    final TypedInput<T> input;
    private @Nullable ToolExecutor executor;
    java.time.@Nullable Duration waitTimeout;
    @Nullable JsonNode resumeSchema;

    TypedToolBuilder(String name, String description, Predicate<JsonNode> approval, TypedInput<T> input) {
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
    public TypedToolBuilder<T> description(String description) {
        this.description = Objects.requireNonNull(description, "description");
        return this;
    }

    /**
     * Every valid call needs approval ({@code true}) or none does ({@code false}, the default).
     *
     * @param required whether valid calls wait for approval
     * @return this builder
     */
    public TypedToolBuilder<T> requireApproval(boolean required) {
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
    public TypedToolBuilder<T> requireApproval(Predicate<? super T> predicate) {
        this.approval = input.approvalOfTyped(predicate);
        this.policy = null;
        return this;
    }

    /**
     * The JSON schema of the data this tool waits for when it suspends; see {@link ToolBuilder#resumeSchema(JsonNode)}.
     *
     * @param schema an object schema
     * @return this builder
     */
    public TypedToolBuilder<T> resumeSchema(JsonNode schema) {
        this.resumeSchema = Objects.requireNonNull(schema, "resumeSchema").deepCopy();
        return this;
    }

    /**
     * How long a call of this tool may wait for a decision (or data); see {@link ToolBuilder#waitTimeout}.
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public TypedToolBuilder<T> waitTimeout(java.time.Duration timeout) {
        this.waitTimeout = ToolBuilder.positive(timeout);
        return this;
    }

    /**
     * What the tool does, given the checked and parsed input.
     *
     * @param executor what the tool does (required)
     * @return this builder
     */
    public TypedToolBuilder<T> execute(TypedToolExecutor<? super T> executor) {
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
        return new Tool(name, description, input.schema().deepCopy(), approval, policy, executor, waitTimeout, input::bind, resumeSchema);
    }
}
