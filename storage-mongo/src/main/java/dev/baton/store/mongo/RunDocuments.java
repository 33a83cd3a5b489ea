package dev.baton.store.mongo;

import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Updates;
import dev.baton.SnapshotFormatException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.Date;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.jspecify.annotations.Nullable;

/**
 * The document of one run in the runs' collection, its field names and the projections that read
 * it, and its mapping to and from a {@link RunSnapshot}:
 *
 * <pre>{@code
 * { _id: runId, agentId, status: "SUSPENDED" | "RESUMING", threadId, resourceId,
 *   createdAt: Date, suspendedAt: Date, version: long, leaseOwner, leaseExpiresAt: Date,
 *   payload: "<the run state as JSON text>", expiresAt: Date, summary: "<what a listing shows, JSON text>",
 *   notifyAt: Date, notifyState: "<the due notification's state, text>",
 *   deciders: ["<decider label>", ...] }
 * }</pre>
 *
 * A document that breaks the snapshot's rules is reported as a {@link SnapshotFormatException}
 * naming the run.
 */
final class RunDocuments {
    static final String ID = "_id";
    static final String AGENT_ID = "agentId";
    static final String STATUS = "status";
    static final String THREAD_ID = "threadId";
    static final String RESOURCE_ID = "resourceId";
    static final String CREATED_AT = "createdAt";
    static final String SUSPENDED_AT = "suspendedAt";
    static final String VERSION = "version";
    static final String LEASE_OWNER = "leaseOwner";
    static final String LEASE_EXPIRES_AT = "leaseExpiresAt";
    static final String PAYLOAD = "payload";
    static final String EXPIRES_AT = "expiresAt";
    static final String SUMMARY = "summary";
    static final String NOTIFY_AT = "notifyAt";
    static final String NOTIFY_STATE = "notifyState";
    /** The run's decider labels ({@link RunSnapshot#deciders()}), an array of strings; absent or empty for none. */
    static final String DECIDERS = "deciders";

    /**
     * Every field of a run, named. Reads ask for exactly these: fields someone else added stay on
     * the server, and the in-JVM test server (mongo-java-server), which otherwise encodes its
     * live document while a concurrent update rewrites it field by field, copies the projected
     * fields under its collection lock, so that a read never sees half an update.
     */
    static final Bson FIELDS = Projections.include(ID, AGENT_ID, STATUS, THREAD_ID, RESOURCE_ID, CREATED_AT,
            SUSPENDED_AT, VERSION, LEASE_OWNER, LEASE_EXPIRES_AT, PAYLOAD, EXPIRES_AT, SUMMARY, NOTIFY_AT, NOTIFY_STATE, DECIDERS);

    /** Every field but the payload: what a listing without payloads reads. */
    static final Bson FIELDS_WITHOUT_PAYLOAD = Projections.include(ID, AGENT_ID, STATUS, THREAD_ID, RESOURCE_ID,
            CREATED_AT, SUSPENDED_AT, VERSION, LEASE_OWNER, LEASE_EXPIRES_AT, EXPIRES_AT, SUMMARY, NOTIFY_AT, NOTIFY_STATE, DECIDERS);

    private RunDocuments() {
    }

    static Document toDocument(RunSnapshot s) {
        return new Document(ID, s.runId())
                .append(AGENT_ID, s.agentId())
                .append(STATUS, s.status().name())
                .append(THREAD_ID, s.threadId())
                .append(RESOURCE_ID, s.resourceId())
                .append(CREATED_AT, Date.from(s.createdAt()))
                .append(SUSPENDED_AT, Date.from(s.suspendedAt()))
                .append(VERSION, s.version())
                .append(LEASE_OWNER, s.leaseOwner())
                .append(LEASE_EXPIRES_AT, date(s.leaseExpiresAt()))
                .append(PAYLOAD, s.payload())
                .append(EXPIRES_AT, date(s.expiresAt()))
                .append(SUMMARY, s.summary())
                .append(NOTIFY_AT, date(s.notifyAt()))
                .append(NOTIFY_STATE, s.notifyState())
                .append(DECIDERS, deciders(s));
    }

    /** The labels as the array stored: in their (sorted) order; empty for none. */
    static java.util.List<String> deciders(RunSnapshot s) {
        return java.util.List.copyOf(s.deciders());
    }

    /**
     * Reads a run document back.
     *
     * @throws SnapshotFormatException if the document lacks a field or has one of the wrong type
     *         (written by something other than this store); it stays in the collection untouched
     */
    static RunSnapshot fromDocument(Document d) {
        return fromDocument(d, true);
    }

    /**
     * Reads a run document back; with {@code payloadRead} false, from a projection that left the payload out,
     * whose run then gets an empty payload.
     */
    static RunSnapshot fromDocument(Document d, boolean payloadRead) {
        try {
            if (!payloadRead && !d.containsKey(PAYLOAD)) d.put(PAYLOAD, "");
            return readDocument(d);
        } catch (RuntimeException e) {
            Object id = d.get(ID);
            throw new SnapshotFormatException(String.valueOf(id), "the MongoDB document is not a Baton run ("
                    + e + ")", e);
        }
    }

    private static RunSnapshot readDocument(Document d) {
        Date lease = d.getDate(LEASE_EXPIRES_AT);
        Date expires = d.getDate(EXPIRES_AT);
        Date notify = d.getDate(NOTIFY_AT);
        return RunSnapshot.builder()
                .runId(d.getString(ID))
                .agentId(d.getString(AGENT_ID))
                .status(RunStatus.valueOf(d.getString(STATUS)))
                .threadId(d.getString(THREAD_ID))
                .resourceId(d.getString(RESOURCE_ID))
                .createdAt(d.getDate(CREATED_AT).toInstant())
                .suspendedAt(d.getDate(SUSPENDED_AT).toInstant())
                .version(d.get(VERSION, Number.class).longValue())
                .lease(d.getString(LEASE_OWNER), lease == null ? null : lease.toInstant())
                .payload(d.getString(PAYLOAD))
                .expiresAt(expires == null ? null : expires.toInstant())
                .summary(d.getString(SUMMARY))
                .notification(notify == null ? null : notify.toInstant(), d.getString(NOTIFY_STATE))
                .deciders(d.getList(DECIDERS, String.class))   // absent (a run stored before the field): none
                .build();
    }

    /**
     * The update a compare-and-set to {@code s} makes: every field but those that never change (runId, agentId,
     * threadId, resourceId, createdAt: SPI contract).
     */
    static Bson replacing(RunSnapshot s) {
        return Updates.combine(
                Updates.set(STATUS, s.status().name()),
                Updates.set(SUSPENDED_AT, Date.from(s.suspendedAt())),
                Updates.set(VERSION, s.version()),
                Updates.set(LEASE_OWNER, s.leaseOwner()),
                Updates.set(LEASE_EXPIRES_AT, date(s.leaseExpiresAt())),
                Updates.set(PAYLOAD, s.payload()),
                Updates.set(EXPIRES_AT, date(s.expiresAt())),
                Updates.set(SUMMARY, s.summary()),
                Updates.set(NOTIFY_AT, date(s.notifyAt())),
                Updates.set(NOTIFY_STATE, s.notifyState()),
                Updates.set(DECIDERS, deciders(s)));
    }

    /** A nullable instant as a BSON date. */
    static @Nullable Date date(@Nullable Instant t) {
        return t == null ? null : Date.from(t);
    }
}
