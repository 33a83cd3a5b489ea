package dev.baton.store;

import dev.baton.agent.RunStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One stored run: the few fields a store filters and orders on, kept as real columns /
 * fields / index entries, and the whole run state as an opaque JSON {@code payload}
 * that only core reads.
 *
 * <p>All instants are truncated to milliseconds, the precision every backend keeps, so a
 * snapshot reads back equal to what was written.
 *
 * @param runId          unique id of the run; stored and matched literally, whatever characters it has
 * @param agentId        id of the agent that owns the run; every query is scoped to it
 * @param status         {@link RunStatus#SUSPENDED} or {@link RunStatus#RESUMING}
 * @param threadId       optional conversation thread, exact-match filter
 * @param resourceId     optional resource (user), exact-match filter
 * @param createdAt      when the run started; date filters and order use it
 * @param suspendedAt    when the run last suspended
 * @param version        incremented by one on every write; the compare-and-set checks it
 * @param leaseOwner     the instance that claimed a {@code RESUMING} run, else null
 * @param leaseExpiresAt when that claim lapses, else null; the lease is held while {@code now < leaseExpiresAt}
 * @param payload        the run state as JSON text, stored and returned verbatim; empty in a listing that
 *                       asked for no payloads ({@link RunQuery#withPayload()} false)
 * @param expiresAt      when the run's wait expires (the soonest deadline of its waiting calls), else null;
 *                       {@link SnapshotStore#listDue} finds runs by it, on an index
 * @param summary        what a listing shows of the run (its waiting calls, why it stopped), as JSON text
 *                       written by core beside the payload, so that listing never reads the payload; null
 *                       for rows written before Baton 0.2 (core then reads the payload)
 */
public record RunSnapshot(
        String runId,
        String agentId,
        RunStatus status,
        @Nullable String threadId,
        @Nullable String resourceId,
        Instant createdAt,
        Instant suspendedAt,
        long version,
        @Nullable String leaseOwner,
        @Nullable Instant leaseExpiresAt,
        String payload,
        @Nullable Instant expiresAt,
        @Nullable String summary) {

    public RunSnapshot {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(suspendedAt, "suspendedAt");
        Objects.requireNonNull(payload, "payload");
        if (runId.isEmpty()) throw new IllegalArgumentException("runId must not be empty");
        if (agentId.isEmpty()) throw new IllegalArgumentException("agentId must not be empty");
        if (version < 1) throw new IllegalArgumentException("version must be >= 1, was " + version);
        if (status == RunStatus.RESUMING && (leaseOwner == null || leaseExpiresAt == null)) {
            throw new IllegalArgumentException("a RESUMING snapshot needs leaseOwner and leaseExpiresAt (run " + runId + ")");
        }
        if (status == RunStatus.SUSPENDED && (leaseOwner != null || leaseExpiresAt != null)) {
            throw new IllegalArgumentException("a SUSPENDED snapshot has no lease (run " + runId + ")");
        }
        createdAt = millis(createdAt);
        suspendedAt = millis(suspendedAt);
        leaseExpiresAt = leaseExpiresAt == null ? null : millis(leaseExpiresAt);
        expiresAt = expiresAt == null ? null : millis(expiresAt);
    }

    /** A snapshot with no deadline and no summary (as Baton 0.1 wrote them). */
    public RunSnapshot(String runId, String agentId, RunStatus status, @Nullable String threadId, @Nullable String resourceId,
                       Instant createdAt, Instant suspendedAt, long version, @Nullable String leaseOwner,
                       @Nullable Instant leaseExpiresAt, String payload) {
        this(runId, agentId, status, threadId, resourceId, createdAt, suspendedAt, version, leaseOwner, leaseExpiresAt,
                payload, null, null);
    }

    static Instant millis(Instant t) {
        return t.truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * The status as of {@code now}: a {@code RESUMING} run whose lease has expired
     * ({@code leaseExpiresAt <= now}) counts as {@code SUSPENDED}.
     */
    public RunStatus effectiveStatus(Instant now) {
        if (status == RunStatus.RESUMING && leaseExpiresAt != null && !now.isBefore(leaseExpiresAt)) {
            return RunStatus.SUSPENDED;
        }
        return status;
    }

    /** A copy with the next version, suspended again with a new payload (deadline and summary kept). */
    public RunSnapshot suspended(Instant at, String newPayload) {
        return suspended(at, newPayload, expiresAt, summary);
    }

    /** A copy with the next version, suspended again with a new payload, deadline and summary. */
    public RunSnapshot suspended(Instant at, String newPayload, @Nullable Instant newExpiresAt, @Nullable String newSummary) {
        return new RunSnapshot(runId, agentId, RunStatus.SUSPENDED, threadId, resourceId, createdAt, at,
                version + 1, null, null, newPayload, newExpiresAt, newSummary);
    }

    /** A copy with the next version and the lease extended to {@code leaseUntil}; only for a {@code RESUMING} run. */
    public RunSnapshot renewed(Instant leaseUntil) {
        if (status != RunStatus.RESUMING) throw new IllegalStateException("run " + runId + " is not being resumed");
        return new RunSnapshot(runId, agentId, status, threadId, resourceId, createdAt, suspendedAt,
                version + 1, leaseOwner, leaseUntil, payload, expiresAt, summary);
    }

    /** A copy with the next version, claimed by {@code owner} until {@code leaseUntil}, with a new payload (deadline and summary kept). */
    public RunSnapshot claimed(String owner, Instant leaseUntil, String newPayload) {
        return claimed(owner, leaseUntil, newPayload, summary);
    }

    /** A copy with the next version, claimed by {@code owner} until {@code leaseUntil}, with a new payload and summary. */
    public RunSnapshot claimed(String owner, Instant leaseUntil, String newPayload, @Nullable String newSummary) {
        return new RunSnapshot(runId, agentId, RunStatus.RESUMING, threadId, resourceId, createdAt, suspendedAt,
                version + 1, owner, leaseUntil, newPayload, expiresAt, newSummary);
    }
}
