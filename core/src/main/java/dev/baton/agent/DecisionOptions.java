package dev.baton.agent;

import dev.baton.InvalidOptionException;
import dev.baton.internal.FreeText;
import dev.baton.store.DecisionRecord;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Who decides, why, and the retry key, for {@code resumeStream}, {@code continueRun},
 * {@code cancelRun} and {@code discardRun} (approve and decline take {@link ApproveOptions} and
 * {@link DeclineOptions}, which carry the same fields and more).
 *
 * <ul>
 *   <li>{@code actor}: recorded as who decided (a principal); {@link DecisionRecord#UNKNOWN} when absent.</li>
 *   <li>{@code reason}: recorded; for {@code cancelRun} also the cancel reason shown in the {@code cancelled} event.</li>
 *   <li>{@code idempotencyKey}: a decision sent again with the same key (a client retrying after a
 *       timeout) returns the first outcome instead of an error, and records nothing new. Keys are
 *       unique per agent; needs a store with {@link dev.baton.store.StoreCapability#DECISIONS}.</li>
 *   <li>{@code digest}: for {@code resumeStream} only: the {@link AgentRunToolCall#digest()} the person
 *       was shown; if the waiting call differs, {@link dev.baton.DecisionConflictException} and nothing runs.</li>
 * </ul>
 * Actor and key are at most 255 characters and not blank; no text here holds NUL or an unpaired
 * surrogate (which some stores cannot keep). Immutable and thread-safe.
 */
public final class DecisionOptions {
    private static final DecisionOptions NONE = builder().build();

    private final @Nullable String actor;
    private final @Nullable Approver approver;
    private final @Nullable String reason;
    private final @Nullable String idempotencyKey;
    private final @Nullable String digest;

    private DecisionOptions(Builder b) {
        this.actor = check("actor", b.actor);
        this.approver = b.approver;
        this.reason = FreeText.check("reason", b.reason);
        this.idempotencyKey = check("idempotencyKey", b.idempotencyKey);
        this.digest = check("digest", b.digest);
    }

    static @Nullable String check(String option, @Nullable String value) {
        if (value == null) return null;
        if (value.isBlank()) throw new InvalidOptionException(option, "must not be blank");
        FreeText.check(option, value);
        if (value.length() > DecisionRecord.MAX_ID_LENGTH) {
            throw new InvalidOptionException(option, "is longer than " + DecisionRecord.MAX_ID_LENGTH + " characters");
        }
        return value;
    }

    /** {@return options naming nobody: actor {@code unknown}, no reason, no key} */
    public static DecisionOptions none() {
        return NONE;
    }

    /**
     * Options naming the actor only.
     *
     * @param actor who decides
     * @return the options
     */
    public static DecisionOptions by(String actor) {
        return builder().actor(Objects.requireNonNull(actor, "actor")).build();
    }

    /** {@return an empty builder} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return who decides, or null (recorded as {@code unknown})} */
    public @Nullable String actor() { return actor; }

    /** {@return who decides, with their roles, as given to {@code approver(...)}, or null (an actor alone has no roles)} */
    public @Nullable Approver approver() { return approver; }

    /** {@return why, or null} */
    public @Nullable String reason() { return reason; }

    /** {@return the retry key, or null} */
    public @Nullable String idempotencyKey() { return idempotencyKey; }

    /** {@return the digest the person was shown (resumeStream only), or null} */
    public @Nullable String digest() { return digest; }

    @Override
    public String toString() {
        return "DecisionOptions[actor=" + actor + ", reason=" + reason + ", idempotencyKey=" + idempotencyKey + ", digest=" + digest + "]";
    }

    /** Builder of {@link DecisionOptions}. Not thread-safe. */
    public static final class Builder {
        private @Nullable String actor;
        private @Nullable Approver approver;
        private @Nullable String reason;
        private @Nullable String idempotencyKey;
        private @Nullable String digest;

        private Builder() {
        }

        /**
         * @param v who decides, or null
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
         * @param v why, or null
         * @return this builder
         */
        public Builder reason(@Nullable String v) { this.reason = v; return this; }

        /**
         * @param v the retry key, or null
         * @return this builder
         */
        public Builder idempotencyKey(@Nullable String v) { this.idempotencyKey = v; return this; }

        /**
         * @param v the digest shown (resumeStream only), or null
         * @return this builder
         */
        public Builder digest(@Nullable String v) { this.digest = v; return this; }

        /**
         * {@return the options}
         *
         * @throws InvalidOptionException naming a blank or too long actor, key or digest, or any of them or the
         *                                reason holding NUL or an unpaired surrogate
         */
        public DecisionOptions build() {
            return new DecisionOptions(this);
        }
    }
}
