package dev.baton.store.mongo;

import com.mongodb.client.model.IndexModel;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.baton.SnapshotFormatException;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import java.util.Date;
import java.util.List;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DecisionRecord} as a MongoDB document, the same in the run document's pending list and in
 * the {@code <runs>_decisions} collection:
 *
 * <pre>{@code
 * { _id: decisionId, agentId, runId, threadId, resourceId, toolCallId, toolName, kind: "approve" | ...,
 *   actor, instanceId, decidedAt: Date, reason, argsDigestBefore, argsDigestAfter, idempotencyKey,
 *   uniqueKey: "k:" + idempotencyKey | "d:" + decisionId }
 * }</pre>
 *
 * {@code uniqueKey} carries the unique index that keeps idempotency keys unique per agent: a record without a
 * key gets its own id there, so the index never sees two equal values it should allow.
 */
final class DecisionDocuments {
    static final String ID = "_id";
    static final String AGENT_ID = "agentId";
    static final String RUN_ID = "runId";
    static final String THREAD_ID = "threadId";
    static final String RESOURCE_ID = "resourceId";
    static final String ACTOR = "actor";
    static final String DECIDED_AT = "decidedAt";
    static final String IDEMPOTENCY_KEY = "idempotencyKey";
    static final String UNIQUE_KEY = "uniqueKey";

    /** Index names, fixed so that reopening finds (and does not duplicate) them. */
    static final String INDEX_AGENT = "baton_decisions_agent";
    static final String INDEX_RUN = "baton_decisions_run";
    static final String INDEX_THREAD = "baton_decisions_thread";
    static final String INDEX_RESOURCE = "baton_decisions_resource";
    static final String INDEX_ACTOR = "baton_decisions_actor";
    static final String INDEX_KEY = "baton_decisions_key";

    private DecisionDocuments() {
    }

    /** One index per query shape, equality fields first, then the listing order; and the unique key. */
    static List<IndexModel> indexes() {
        Bson order = Indexes.compoundIndex(Indexes.descending(DECIDED_AT), Indexes.descending(ID));
        return List.of(
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID), order), new IndexOptions().name(INDEX_AGENT)),
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID, RUN_ID), order), new IndexOptions().name(INDEX_RUN)),
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID, THREAD_ID), order),
                        new IndexOptions().name(INDEX_THREAD)),
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID, RESOURCE_ID), order),
                        new IndexOptions().name(INDEX_RESOURCE)),
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID, ACTOR), order), new IndexOptions().name(INDEX_ACTOR)),
                new IndexModel(Indexes.ascending(AGENT_ID, UNIQUE_KEY), new IndexOptions().name(INDEX_KEY).unique(true)));
    }

    static Document toDocument(DecisionRecord d) {
        return new Document(ID, d.decisionId())
                .append(AGENT_ID, d.agentId())
                .append(RUN_ID, d.runId())
                .append(THREAD_ID, d.threadId())
                .append(RESOURCE_ID, d.resourceId())
                .append("toolCallId", d.toolCallId())
                .append("toolName", d.toolName())
                .append("kind", d.kind().wireName())
                .append(ACTOR, d.actor())
                .append("instanceId", d.instanceId())
                .append(DECIDED_AT, Date.from(d.decidedAt()))
                .append("reason", d.reason())
                .append("argsDigestBefore", d.argsDigestBefore())
                .append("argsDigestAfter", d.argsDigestAfter())
                .append(IDEMPOTENCY_KEY, d.idempotencyKey())
                .append(UNIQUE_KEY, uniqueKey(d.idempotencyKey(), d.decisionId()));
    }

    /** What the unique index holds for a record: its key, or (without a key) its own id. */
    static String uniqueKey(@Nullable String idempotencyKey, String decisionId) {
        return idempotencyKey != null ? "k:" + idempotencyKey : "d:" + decisionId;
    }

    /**
     * Reads a record back.
     *
     * @throws SnapshotFormatException if the document is not a Baton decision (written by something else)
     */
    static DecisionRecord fromDocument(Document d) {
        try {
            return DecisionRecord.builder()
                    .decisionId(d.getString(ID)).agentId(d.getString(AGENT_ID)).runId(d.getString(RUN_ID))
                    .threadId(d.getString(THREAD_ID)).resourceId(d.getString(RESOURCE_ID))
                    .toolCallId(d.getString("toolCallId")).toolName(d.getString("toolName"))
                    .kind(DecisionKind.fromWireName(d.getString("kind"))).actor(d.getString(ACTOR))
                    .instanceId(d.getString("instanceId")).decidedAt(d.getDate(DECIDED_AT).toInstant())
                    .reason(d.getString("reason")).argsDigestBefore(d.getString("argsDigestBefore"))
                    .argsDigestAfter(d.getString("argsDigestAfter")).idempotencyKey(d.getString(IDEMPOTENCY_KEY))
                    .build();
        } catch (RuntimeException e) {
            throw new SnapshotFormatException(String.valueOf(d.get(RUN_ID)), "the MongoDB document " + d.get(ID)
                    + " is not a Baton decision record (" + e + ")", e);
        }
    }
}
