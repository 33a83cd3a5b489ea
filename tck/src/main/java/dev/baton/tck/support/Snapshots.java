package dev.baton.tck.support;

import dev.baton.agent.RunStatus;
import dev.baton.store.RunSnapshot;
import java.time.Instant;
import java.util.UUID;

/**
 * Builds {@link RunSnapshot}s for store tests. Every test gets its own agent ids, so tests never see each other's runs.
 * Not API.
 */
public final class Snapshots {
    /** A fixed origin for creation times, so tests can name exact instants. */
    public static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    private Snapshots() {
    }

    /** A fresh id, unique across tests and JVMs, with a readable prefix. */
    public static String uniqueId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 13);
    }

    /** A small valid JSON payload naming the run. */
    public static String payloadFor(String runId) {
        return "{\"formatVersion\":1,\"note\":\"tck\",\"run\":" + json(runId) + "}";
    }

    /** A suspended snapshot, version 1, created {@code createdOffsetMillis} after {@link #T0}. */
    public static RunSnapshot suspended(String agentId, String runId, String threadId, String resourceId,
                                        long createdOffsetMillis) {
        Instant created = T0.plusMillis(createdOffsetMillis);
        return new RunSnapshot(runId, agentId, RunStatus.SUSPENDED, threadId, resourceId, created,
                created.plusSeconds(1), 1, null, null, payloadFor(runId));
    }

    /** JSON string literal for {@code s}. */
    public static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}
