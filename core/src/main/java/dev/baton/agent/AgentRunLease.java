package dev.baton.agent;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A run being resumed right now, for operations: who holds it and until when.
 * If {@code leaseExpiresAt} passes without a heartbeat, the run is listed as suspended again.
 * Immutable and thread-safe; the constructor is for core and tests, and the record may gain components.
 *
 * @param runId          the run
 * @param threadId       its thread, or null
 * @param resourceId     its resource, or null
 * @param leaseOwner     the instance working on it ({@code Agent.instanceId()} there)
 * @param leaseExpiresAt when its lease lapses unless renewed
 */
public record AgentRunLease(String runId, @Nullable String threadId, @Nullable String resourceId,
                            String leaseOwner, Instant leaseExpiresAt) {
}
