package dev.baton.agent;

import dev.baton.InvalidOptionException;
import dev.baton.internal.FreeText;
import org.jspecify.annotations.Nullable;

/**
 * How a call is declined ({@link Agent#declineToolCall(String, String, DeclineOptions)}):
 * {@code reason} (what the model is told, and recorded; the default text when absent), and, as in
 * {@link DecisionOptions}, {@code actor}, {@code idempotencyKey} and {@code digest} (the
 * {@link AgentRunToolCall#digest()} shown; a different waiting call is refused with
 * {@link dev.baton.DecisionConflictException}).
 *
 * <p>Immutable and thread-safe.
 */
public final class DeclineOptions {
    private final @Nullable String reason;
    private final @Nullable String actor;
    private final @Nullable Approver approver;
    private final @Nullable String idempotencyKey;
    private final @Nullable String digest;

    private DeclineOptions(Builder b) {
        this.reason = FreeText.check("reason", b.reason);
        this.actor = DecisionOptions.check("actor", b.actor);
        this.approver = b.approver;
        this.idempotencyKey = DecisionOptions.check("idempotencyKey", b.idempotencyKey);
        this.digest = DecisionOptions.check("digest", b.digest);
    }

    /** {@return an empty builder} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return what the model is told, or null for the default text} */
    public @Nullable String reason() { return reason; }

    /** {@return who declines, or null (recorded as {@code unknown})} */
    public @Nullable String actor() { return actor; }

    /** {@return who decides, with their roles, as given to {@code approver(...)}, or null (an actor alone has no roles)} */
    public @Nullable Approver approver() { return approver; }

    /** {@return the retry key, or null} */
    public @Nullable String idempotencyKey() { return idempotencyKey; }

    /** {@return the digest the person was shown, or null (not checked)} */
    public @Nullable String digest() { return digest; }

    @Override
    public String toString() {
        return "DeclineOptions[reason=" + reason + ", actor=" + actor + ", idempotencyKey=" + idempotencyKey + ", digest=" + digest + "]";
    }

    /** Builder of {@link DeclineOptions}. Not thread-safe. */
    public static final class Builder {
        private @Nullable String reason;
        private @Nullable String actor;
        private @Nullable Approver approver;
        private @Nullable String idempotencyKey;
        private @Nullable String digest;

        private Builder() {
        }

        /**
         * @param v what the model is told, or null
         * @return this builder
         */
        public Builder reason(@Nullable String v) { this.reason = v; return this; }

        /**
         * @param v who declines, or null
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
         * @param v the digest shown, or null
         * @return this builder
         */
        public Builder digest(@Nullable String v) { this.digest = v; return this; }

        /**
         * {@return the options}
         *
         * @throws InvalidOptionException naming a blank or too long actor, key or digest, or any of them or the
         *                                reason holding NUL or an unpaired surrogate
         */
        public DeclineOptions build() {
            return new DeclineOptions(this);
        }
    }
}
