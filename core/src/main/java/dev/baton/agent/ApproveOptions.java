package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.InvalidOptionException;
import dev.baton.internal.FreeText;
import org.jspecify.annotations.Nullable;

/**
 * How a call is approved ({@link Agent#approveToolCall(String, String, ApproveOptions)}).
 *
 * <ul>
 *   <li>{@code args}: edited arguments to run the tool with instead of the proposed ones (a JSON
 *       object). They are validated against the tool's input schema (typed tools: read into the
 *       input record) before anything changes; a bad edit is refused with
 *       {@link dev.baton.tool.InvalidToolInputException} naming the field and the rule. Null: the
 *       call runs as proposed. Arguments equal to the proposed ones count as no edit.</li>
 *   <li>{@code digest}: the {@link AgentRunToolCall#digest()} the person was shown; if the waiting
 *       call is no longer that one, {@link dev.baton.DecisionConflictException} and nothing runs.</li>
 *   <li>{@code reason}, {@code actor}, {@code idempotencyKey}: as in {@link DecisionOptions}.</li>
 *   <li>{@code approver}: who approves with their roles ({@link Approver}), checked against the
 *       agent's {@link ApproverRule}s; sets the actor.</li>
 * </ul>
 * Immutable and thread-safe: {@code args} is a private copy.
 */
public final class ApproveOptions {
    private final @Nullable JsonNode args;
    private final @Nullable String digest;
    private final @Nullable String reason;
    private final @Nullable String actor;
    private final @Nullable Approver approver;
    private final @Nullable String idempotencyKey;

    private ApproveOptions(Builder b) {
        if (b.args != null && !b.args.isObject()) {
            throw new InvalidOptionException("args", "must be a JSON object, was " + b.args.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        }
        this.args = b.args == null ? null : b.args.deepCopy();
        this.digest = DecisionOptions.check("digest", b.digest);
        this.reason = FreeText.check("reason", b.reason);
        this.actor = DecisionOptions.check("actor", b.actor);
        this.approver = b.approver;
        this.idempotencyKey = DecisionOptions.check("idempotencyKey", b.idempotencyKey);
    }

    /** {@return an empty builder: approve as proposed, actor unknown} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the edited arguments (a copy), or null: run as proposed} */
    public @Nullable JsonNode args() { return args == null ? null : args.deepCopy(); }

    /** {@return the digest the person was shown, or null (not checked)} */
    public @Nullable String digest() { return digest; }

    /** {@return why, or null} */
    public @Nullable String reason() { return reason; }

    /** {@return who approves, or null (recorded as {@code unknown})} */
    public @Nullable String actor() { return actor; }

    /** {@return who decides, with their roles, as given to {@code approver(...)}, or null (an actor alone has no roles)} */
    public @Nullable Approver approver() { return approver; }

    /** {@return the retry key, or null} */
    public @Nullable String idempotencyKey() { return idempotencyKey; }

    @Override
    public String toString() {
        return "ApproveOptions[args=" + args + ", digest=" + digest + ", reason=" + reason + ", actor=" + actor
                + ", idempotencyKey=" + idempotencyKey + "]";
    }

    /** Builder of {@link ApproveOptions}. Not thread-safe. */
    public static final class Builder {
        private @Nullable JsonNode args;
        private @Nullable String digest;
        private @Nullable String reason;
        private @Nullable String actor;
        private @Nullable Approver approver;
        private @Nullable String idempotencyKey;

        private Builder() {
        }

        /**
         * @param v the edited arguments (a JSON object), or null
         * @return this builder
         */
        public Builder args(@Nullable JsonNode v) { this.args = v; return this; }

        /**
         * @param v the digest shown, or null
         * @return this builder
         */
        public Builder digest(@Nullable String v) { this.digest = v; return this; }

        /**
         * @param v why, or null
         * @return this builder
         */
        public Builder reason(@Nullable String v) { this.reason = v; return this; }

        /**
         * @param v who approves, or null
         * @return this builder
         */
        public Builder actor(@Nullable String v) {
            this.actor = v;
            this.approver = Approver.keptFor(approver, v);
            return this;
        }

        /**
         * Who decides, with the roles {@link ApproverRule}s are checked against; sets the actor to
         * {@code v.name()} (null clears both).
         *
         * @param v the approver, or null
         * @return this builder
         */
        public Builder approver(@Nullable Approver v) {
            this.approver = v;
            this.actor = v == null ? null : v.name();
            return this;
        }

        /**
         * @param v the retry key, or null
         * @return this builder
         */
        public Builder idempotencyKey(@Nullable String v) { this.idempotencyKey = v; return this; }

        /**
         * {@return the options}
         *
         * @throws InvalidOptionException naming {@code args} that are not an object, or a blank or too
         *                                long actor, key or digest, or any of them or the reason holding NUL
         *                                or an unpaired surrogate
         */
        public ApproveOptions build() {
            return new ApproveOptions(this);
        }
    }
}
