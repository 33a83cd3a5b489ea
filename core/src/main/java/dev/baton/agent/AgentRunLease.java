package dev.baton.agent;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A run being resumed right now, for operations: who holds it and until when.
 * If {@code leaseExpiresAt} passes without a heartbeat, the run is listed as suspended again.
 */
public record AgentRunLease(String runId, @Nullable String threadId, @Nullable String resourceId,
                            String leaseOwner, Instant leaseExpiresAt) {
}
