package dev.baton.tck.support;

import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
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

    /**
     * A fresh id, unique across tests and JVMs, with a readable prefix.
     *
     * @param prefix what the id starts with
     * @return {@code prefix-} and 13 random characters
     */
    public static String uniqueId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 13);
    }

    /** The summary of a run that waits on nothing: what core writes for such a run, and valid. */
    public static final String EMPTY_SUMMARY = "{\"calls\":[]}";

    /**
     * A small valid JSON payload naming the run (snapshot format 2; core cannot resume from it).
     *
     * @param runId the run it names
     * @return the payload text
     */
    public static String payloadFor(String runId) {
        return "{\"formatVersion\":2,\"note\":\"tck\",\"run\":" + json(runId) + "}";
    }

    /**
     * A builder for a suspended snapshot, version 1, created and suspended at {@code at}, with
     * {@link #payloadFor the run's payload} and {@link #EMPTY_SUMMARY}: set what a test needs.
     *
     * @param agentId the agent
     * @param runId   the run
     * @param at      its creation and suspension time
     * @return a builder holding a valid suspended row
     */
    public static RunSnapshot.Builder suspendedAt(String agentId, String runId, Instant at) {
        return RunSnapshot.builder().runId(runId).agentId(agentId).status(RunStatus.SUSPENDED)
                .createdAt(at).suspendedAt(at).payload(payloadFor(runId)).summary(EMPTY_SUMMARY);
    }

    /**
     * A suspended snapshot, version 1, created {@code createdOffsetMillis} after {@link #T0} and
     * suspended a second later.
     *
     * @param agentId             the agent
     * @param runId               the run
     * @param threadId            its thread, or null
     * @param resourceId          its resource, or null
     * @param createdOffsetMillis milliseconds after {@link #T0}
     * @return the snapshot
     */
    public static RunSnapshot suspended(String agentId, String runId, String threadId, String resourceId,
                                        long createdOffsetMillis) {
        Instant created = T0.plusMillis(createdOffsetMillis);
        return suspendedAt(agentId, runId, created).threadId(threadId).resourceId(resourceId)
                .suspendedAt(created.plusSeconds(1)).build();
    }

    /**
     * JSON string literal for {@code s}.
     *
     * @param s any text
     * @return {@code s} quoted and escaped for JSON
     */
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
