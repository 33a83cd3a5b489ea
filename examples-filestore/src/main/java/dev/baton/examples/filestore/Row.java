package dev.baton.examples.filestore;

import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The row file of {@link FileSnapshotStore}: every field of a {@link RunSnapshot} but the payload, instants as epoch
 * milliseconds, and the version whose payload file holds the payload. A row written before decider labels existed reads
 * back without any ({@code deciders} null).
 */
record Row(String runId, String agentId, String status, @Nullable String threadId, @Nullable String resourceId,
           long createdAt, long suspendedAt, long version, @Nullable String leaseOwner, @Nullable Long leaseExpiresAt,
           @Nullable Long expiresAt, String summary, long payloadVersion, @Nullable Long notifyAt,
           @Nullable String notifyState, java.util.@Nullable List<String> deciders) {

    static Row of(RunSnapshot s) {
        return new Row(s.runId(), s.agentId(), s.status().name(), s.threadId(), s.resourceId(),
                s.createdAt().toEpochMilli(), s.suspendedAt().toEpochMilli(), s.version(), s.leaseOwner(),
                millis(s.leaseExpiresAt()), millis(s.expiresAt()), s.summary(), s.version(), millis(s.notifyAt()),
                s.notifyState(), s.deciders().isEmpty() ? null : java.util.List.copyOf(s.deciders()));
    }

    /** The snapshot this row and {@code payload} make. */
    RunSnapshot snapshot(String payload) {
        return RunSnapshot.builder()
                .runId(runId).agentId(agentId).status(RunStatus.valueOf(status))
                .threadId(threadId).resourceId(resourceId)
                .createdAt(Instant.ofEpochMilli(createdAt)).suspendedAt(Instant.ofEpochMilli(suspendedAt))
                .version(version)
                .lease(leaseOwner, instant(leaseExpiresAt))
                .payload(payload)
                .expiresAt(instant(expiresAt))
                .summary(summary)
                .notification(instant(notifyAt), notifyState)
                .deciders(deciders)
                .build();
    }

    /** The same row at the next version with the lease extended; the payload file stays the same. */
    Row renewed(Instant leaseUntil) {
        return new Row(runId, agentId, status, threadId, resourceId, createdAt, suspendedAt, version + 1, leaseOwner,
                leaseUntil.toEpochMilli(), expiresAt, summary, payloadVersion, notifyAt, notifyState, deciders);
    }

    /** The same row, same version, with another notification; the payload file stays the same. */
    Row notifying(@Nullable Instant at, @Nullable String state) {
        return new Row(runId, agentId, status, threadId, resourceId, createdAt, suspendedAt, version, leaseOwner,
                leaseExpiresAt, expiresAt, summary, payloadVersion, millis(at), state, deciders);
    }

    private static @Nullable Long millis(@Nullable Instant t) {
        return t == null ? null : t.toEpochMilli();
    }

    private static @Nullable Instant instant(@Nullable Long millis) {
        return millis == null ? null : Instant.ofEpochMilli(millis);
    }
}
