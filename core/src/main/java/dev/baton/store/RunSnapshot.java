package dev.baton.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * One stored run: the few fields a store filters and orders on, kept as real columns / fields /
 * index entries, the whole run state as an opaque JSON {@code payload} that only core reads, and
 * the listing {@code summary} core writes beside it.
 *
 * <p>Built with {@link #builder()} (a new row) or {@link #toBuilder()} (a row read back, changed):
 * <pre>{@code
 * RunSnapshot s = RunSnapshot.builder().runId(runId).agentId(agentId).status(RunStatus.valueOf(status))
 *     .threadId(threadId).resourceId(resourceId).createdAt(createdAt).suspendedAt(suspendedAt).version(version)
 *     .lease(leaseOwner, leaseExpiresAt).payload(payload).expiresAt(expiresAt).summary(summary)
 *     .notification(notifyAt, notifyState).deciders(deciders).build();
 * }</pre>
 * New fields arrive in later releases as builder methods with defaults, so a store compiled
 * against this version keeps compiling and never drops a field silently by a constructor overload.
 *
 * <p>All instants are truncated to milliseconds, the precision every backend keeps, so a
 * snapshot reads back equal to what was written. Immutable and thread-safe.
 */
public final class RunSnapshot {
    private final String runId;
    private final String agentId;
    private final RunStatus status;
    private final @Nullable String threadId;
    private final @Nullable String resourceId;
    private final Instant createdAt;
    private final Instant suspendedAt;
    private final long version;
    private final @Nullable String leaseOwner;
    private final @Nullable Instant leaseExpiresAt;
    private final String payload;
    private final @Nullable Instant expiresAt;
    private final String summary;
    private final @Nullable Instant notifyAt;
    private final @Nullable String notifyState;
    private final SortedSet<String> deciders;

    /** The longest a {@link #deciders()} label may be; core hashes a longer one. */
    public static final int MAX_DECIDER_LENGTH = 128;

    private RunSnapshot(Builder b) {
        this.runId = required(b.runId, "runId");
        this.agentId = required(b.agentId, "agentId");
        this.status = required(b.status, "status");
        this.threadId = b.threadId;
        this.resourceId = b.resourceId;
        this.createdAt = required(millis(b.createdAt), "createdAt");
        this.suspendedAt = required(millis(b.suspendedAt), "suspendedAt");
        this.version = b.version;
        this.leaseOwner = b.leaseOwner;
        this.leaseExpiresAt = millis(b.leaseExpiresAt);
        this.payload = required(b.payload, "payload");
        this.expiresAt = millis(b.expiresAt);
        this.summary = required(b.summary, "summary");
        this.notifyAt = millis(b.notifyAt);
        this.notifyState = b.notifyState;
        this.deciders = labels(b.deciders, runId);
        if (runId.isEmpty()) throw new IllegalArgumentException("runId must not be empty");
        if (agentId.isEmpty()) throw new IllegalArgumentException("agentId must not be empty");
        if (version < 1) throw new IllegalArgumentException("version must be >= 1, was " + version + " (run " + runId + ")");
        if (status == RunStatus.RESUMING && (leaseOwner == null || leaseExpiresAt == null)) throw new IllegalArgumentException(
                "a RESUMING snapshot needs leaseOwner and leaseExpiresAt (run " + runId + ")");
        if (status == RunStatus.SUSPENDED && (leaseOwner != null || leaseExpiresAt != null)) throw new IllegalArgumentException(
                "a SUSPENDED snapshot has no lease (run " + runId + ")");
    }

    private static <T> T required(@Nullable T value, String name) {
        if (value == null) throw new IllegalArgumentException(name + " is required in a RunSnapshot");
        return value;
    }

    private static SortedSet<String> labels(@Nullable Collection<String> given, String runId) {
        if (given == null || given.isEmpty()) return Collections.emptySortedSet();
        TreeSet<String> out = new TreeSet<>();
        for (String label : given) {
            if (label == null || label.isEmpty() || label.length() > MAX_DECIDER_LENGTH || label.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("a decider label must be 1 to " + MAX_DECIDER_LENGTH
                        + " characters without NUL, was " + (label == null ? "null" : "'" + label + "'") + " (run " + runId + ")");
            }
            out.add(label);
        }
        return Collections.unmodifiableSortedSet(out);
    }

    private static @Nullable Instant millis(@Nullable Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.MILLIS);
    }

    /** {@return a builder for a new snapshot; {@code version} starts at 1, everything else is unset} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding every field of this snapshot, to change some and build a new one} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.runId = runId;
        b.agentId = agentId;
        b.status = status;
        b.threadId = threadId;
        b.resourceId = resourceId;
        b.createdAt = createdAt;
        b.suspendedAt = suspendedAt;
        b.version = version;
        b.leaseOwner = leaseOwner;
        b.leaseExpiresAt = leaseExpiresAt;
        b.payload = payload;
        b.expiresAt = expiresAt;
        b.summary = summary;
        b.notifyAt = notifyAt;
        b.notifyState = notifyState;
        b.deciders = deciders;
        return b;
    }

    /** {@return the run's unique id; stored and matched literally, whatever characters it has} */
    public String runId() { return runId; }

    /** {@return the id of the agent that owns the run; every query is scoped to it} */
    public String agentId() { return agentId; }

    /** {@return {@link RunStatus#SUSPENDED} or {@link RunStatus#RESUMING}, as stored (see {@link #effectiveStatus})} */
    public RunStatus status() { return status; }

    /** {@return the run's conversation thread (exact-match filter), or null} */
    public @Nullable String threadId() { return threadId; }

    /** {@return the run's resource, typically a user (exact-match filter), or null} */
    public @Nullable String resourceId() { return resourceId; }

    /** {@return when the run started; the date filters and the listing order use it} */
    public Instant createdAt() { return createdAt; }

    /** {@return when the run last suspended} */
    public Instant suspendedAt() { return suspendedAt; }

    /** {@return the row's version: 1 when inserted, one more on every write; the compare-and-set checks it} */
    public long version() { return version; }

    /** {@return the instance that claimed a {@code RESUMING} run, else null} */
    public @Nullable String leaseOwner() { return leaseOwner; }

    /** {@return when the claim lapses, else null; the lease is held while {@code now < leaseExpiresAt}} */
    public @Nullable Instant leaseExpiresAt() { return leaseExpiresAt; }

    /** {@return the run state as JSON text, verbatim; empty in a listing without payloads ({@link RunQuery#withPayload()})} */
    public String payload() { return payload; }

    /** {@return when the wait expires (its calls' soonest deadline), else null; {@link SnapshotStore#listDue} uses it} */
    public @Nullable Instant expiresAt() { return expiresAt; }

    /**
     * {@return what a listing shows of the run (its waiting calls, why it stopped), as JSON text written
     * by core beside the payload, so that listing never reads the payload; required, stored and returned
     * verbatim, also in a listing without payloads}
     */
    public String summary() { return summary; }

    /**
     * {@return when a notification about the run is next due (the outbox obligation, written with the wait it is
     * about), else null; {@link SnapshotStore#listNotificationsDue} finds it, {@link SnapshotStore#updateNotification} moves it}
     */
    public @Nullable Instant notifyAt() { return notifyAt; }

    /** {@return the notification's state, text written by core (event, attempts, last error), stored verbatim, else null} */
    public @Nullable String notifyState() { return notifyState; }

    /**
     * {@return the run's decider labels: who may decide one of its waiting calls now, written by core at every
     * write of a suspended run; opaque to a store, which stores them with the run (in the same atomic write) and
     * filters on them for {@link RunQuery#deciders()}; never null, immutable, in sorted order, empty for a run that
     * waits for no decision by a person}
     */
    public Set<String> deciders() { return deciders; }

    /**
     * The status as of {@code now}: a {@code RESUMING} run whose lease has expired
     * ({@code leaseExpiresAt <= now}) counts as {@code SUSPENDED}.
     *
     * @param now the instant to judge the lease at
     * @return the effective status
     */
    public RunStatus effectiveStatus(Instant now) {
        if (status == RunStatus.RESUMING && leaseExpiresAt != null && !now.isBefore(leaseExpiresAt)) {
            return RunStatus.SUSPENDED;
        }
        return status;
    }

    /**
     * A copy with the next version, suspended again with a new payload (deadline, summary and decider labels kept).
     *
     * @param at         when it suspended
     * @param newPayload the new payload
     * @return the copy
     */
    public RunSnapshot suspended(Instant at, String newPayload) {
        return suspended(at, newPayload, expiresAt, summary);
    }

    /**
     * A copy with the next version, suspended again with a new payload, deadline, summary and decider labels,
     * no notification due.
     *
     * @param at           when it suspended
     * @param newPayload   the new payload
     * @param newExpiresAt the new deadline, or null
     * @param newSummary   the new summary
     * @param newDeciders  the new decider labels (see {@link #deciders()}), or null for none
     * @return the copy
     */
    public RunSnapshot suspended(Instant at, String newPayload, @Nullable Instant newExpiresAt, String newSummary,
                                 @Nullable Collection<String> newDeciders) {
        return toBuilder().status(RunStatus.SUSPENDED).suspendedAt(at).version(version + 1).lease(null, null)
                .payload(newPayload).expiresAt(newExpiresAt).summary(newSummary).notification(null, null)
                .deciders(newDeciders).build();
    }

    /**
     * A copy with the next version, suspended again with a new payload, deadline and summary (decider labels kept),
     * no notification due.
     *
     * @param at           when it suspended
     * @param newPayload   the new payload
     * @param newExpiresAt the new deadline, or null
     * @param newSummary   the new summary
     * @return the copy
     */
    public RunSnapshot suspended(Instant at, String newPayload, @Nullable Instant newExpiresAt, String newSummary) {
        return toBuilder().status(RunStatus.SUSPENDED).suspendedAt(at).version(version + 1).lease(null, null)
                .payload(newPayload).expiresAt(newExpiresAt).summary(newSummary).notification(null, null).build();
    }

    /**
     * A copy with the next version and the lease extended to {@code leaseUntil} (decider labels kept); only for a
     * {@code RESUMING} run.
     *
     * @param leaseUntil the new lease expiry
     * @return the copy
     * @throws IllegalStateException if the run is not {@code RESUMING}
     */
    public RunSnapshot renewed(Instant leaseUntil) {
        if (status != RunStatus.RESUMING) throw new IllegalStateException("run " + runId + " is not being resumed");
        return toBuilder().version(version + 1).leaseExpiresAt(leaseUntil).build();
    }

    /**
     * A copy with the next version, claimed by {@code owner} until {@code leaseUntil}, with a new
     * payload (deadline, summary and decider labels kept: a claimed run matches no {@link RunQuery#deciders()} filter
     * anyway, so a claim costs no label write).
     *
     * @param owner      the claiming instance
     * @param leaseUntil when the claim lapses
     * @param newPayload the new payload
     * @return the copy
     */
    public RunSnapshot claimed(String owner, Instant leaseUntil, String newPayload) {
        return claimed(owner, leaseUntil, newPayload, summary);
    }

    /**
     * A copy with the next version, claimed by {@code owner} until {@code leaseUntil}, with a new payload and summary,
     * no notification due (decider labels kept).
     *
     * @param owner      the claiming instance
     * @param leaseUntil when the claim lapses
     * @param newPayload the new payload
     * @param newSummary the new summary
     * @return the copy
     */
    public RunSnapshot claimed(String owner, Instant leaseUntil, String newPayload, String newSummary) {
        return toBuilder().status(RunStatus.RESUMING).version(version + 1).lease(owner, leaseUntil).payload(newPayload)
                .summary(newSummary).notification(null, null).build();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RunSnapshot s)) return false;
        return version == s.version && runId.equals(s.runId) && agentId.equals(s.agentId) && status == s.status
                && Objects.equals(threadId, s.threadId) && Objects.equals(resourceId, s.resourceId)
                && createdAt.equals(s.createdAt) && suspendedAt.equals(s.suspendedAt)
                && Objects.equals(leaseOwner, s.leaseOwner) && Objects.equals(leaseExpiresAt, s.leaseExpiresAt)
                && payload.equals(s.payload) && Objects.equals(expiresAt, s.expiresAt) && summary.equals(s.summary)
                && Objects.equals(notifyAt, s.notifyAt) && Objects.equals(notifyState, s.notifyState)
                && deciders.equals(s.deciders);
    }

    @Override
    public int hashCode() {
        return Objects.hash(runId, agentId, status, threadId, resourceId, createdAt, suspendedAt, version, leaseOwner,
                leaseExpiresAt, payload, expiresAt, summary, notifyAt, notifyState, deciders);
    }

    /** {@return every field but the payload and summary, whose lengths are shown instead} */
    @Override
    public String toString() {
        return "RunSnapshot[runId=" + runId + ", agentId=" + agentId + ", status=" + status + ", threadId=" + threadId
                + ", resourceId=" + resourceId + ", createdAt=" + createdAt + ", suspendedAt=" + suspendedAt
                + ", version=" + version + ", leaseOwner=" + leaseOwner + ", leaseExpiresAt=" + leaseExpiresAt
                + ", payload=(" + payload.length() + " chars), expiresAt=" + expiresAt + ", summary=(" + summary.length()
                + " chars), notifyAt=" + notifyAt + ", notifyState=" + notifyState + ", deciders=" + deciders + "]";
    }

    /**
     * Builder of {@link RunSnapshot}; {@link #build()} checks every rule. Not thread-safe: one
     * builder per snapshot.
     */
    public static final class Builder {
        private @Nullable String runId;
        private @Nullable String agentId;
        private @Nullable RunStatus status;
        private @Nullable String threadId;
        private @Nullable String resourceId;
        private @Nullable Instant createdAt;
        private @Nullable Instant suspendedAt;
        private long version = 1;
        private @Nullable String leaseOwner;
        private @Nullable Instant leaseExpiresAt;
        private @Nullable String payload;
        private @Nullable Instant expiresAt;
        private @Nullable String summary;
        private @Nullable Instant notifyAt;
        private @Nullable String notifyState;
        private @Nullable Collection<String> deciders;

        private Builder() {
        }

        /**
         * @param runId the run's id (required, not empty)
         * @return this builder
         */
        public Builder runId(String runId) { this.runId = runId; return this; }

        /**
         * @param agentId the owning agent's id (required, not empty)
         * @return this builder
         */
        public Builder agentId(String agentId) { this.agentId = agentId; return this; }

        /**
         * @param status the stored status (required)
         * @return this builder
         */
        public Builder status(RunStatus status) { this.status = status; return this; }

        /**
         * @param threadId the thread, or null
         * @return this builder
         */
        public Builder threadId(@Nullable String threadId) { this.threadId = threadId; return this; }

        /**
         * @param resourceId the resource, or null
         * @return this builder
         */
        public Builder resourceId(@Nullable String resourceId) { this.resourceId = resourceId; return this; }

        /**
         * @param createdAt when the run started (required)
         * @return this builder
         */
        public Builder createdAt(Instant createdAt) { this.createdAt = createdAt; return this; }

        /**
         * @param suspendedAt when the run last suspended (required)
         * @return this builder
         */
        public Builder suspendedAt(Instant suspendedAt) { this.suspendedAt = suspendedAt; return this; }

        /**
         * @param version the row's version, at least 1 (default 1)
         * @return this builder
         */
        public Builder version(long version) { this.version = version; return this; }

        /**
         * @param leaseOwner the claiming instance (with {@code RESUMING}), or null
         * @return this builder
         */
        public Builder leaseOwner(@Nullable String leaseOwner) { this.leaseOwner = leaseOwner; return this; }

        /**
         * @param leaseExpiresAt when the claim lapses (with {@code RESUMING}), or null
         * @return this builder
         */
        public Builder leaseExpiresAt(@Nullable Instant leaseExpiresAt) { this.leaseExpiresAt = leaseExpiresAt; return this; }

        /**
         * Sets both lease fields at once: both set for a {@code RESUMING} run, both null for a {@code SUSPENDED} one.
         *
         * @param owner     the claiming instance, or null
         * @param expiresAt when the claim lapses, or null
         * @return this builder
         */
        public Builder lease(@Nullable String owner, @Nullable Instant expiresAt) {
            this.leaseOwner = owner;
            this.leaseExpiresAt = expiresAt;
            return this;
        }

        /**
         * @param payload the run state as JSON text, or empty in a listing without payloads (required)
         * @return this builder
         */
        public Builder payload(String payload) { this.payload = payload; return this; }

        /**
         * @param expiresAt when the run's wait expires, or null
         * @return this builder
         */
        public Builder expiresAt(@Nullable Instant expiresAt) { this.expiresAt = expiresAt; return this; }

        /**
         * @param summary the listing summary core wrote, as JSON text (required)
         * @return this builder
         */
        public Builder summary(String summary) { this.summary = summary; return this; }

        /**
         * @param notifyAt    when a notification about the run is next due, or null (the default)
         * @param notifyState the notification's state as text, stored verbatim, or null (the default)
         * @return this builder
         */
        public Builder notification(@Nullable Instant notifyAt, @Nullable String notifyState) {
            this.notifyAt = notifyAt;
            this.notifyState = notifyState;
            return this;
        }

        /**
         * @param deciders the run's decider labels (see {@link RunSnapshot#deciders()}), or null for none (the default);
         *                 copied
         * @return this builder
         */
        public Builder deciders(@Nullable Collection<String> deciders) {
            this.deciders = deciders == null ? null : new java.util.ArrayList<>(deciders);
            return this;
        }

        /**
         * {@return the snapshot}
         *
         * @throws IllegalArgumentException naming the field, if a required field is missing, an id is
         *         empty, the version is below 1, the lease does not match the status, or a decider label is
         *         empty, longer than {@link RunSnapshot#MAX_DECIDER_LENGTH} or holds a NUL
         */
        public RunSnapshot build() {
            return new RunSnapshot(this);
        }
    }
}
