package dev.baton.store.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.baton.model.Role;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoredMessage;
import dev.baton.tck.support.Snapshots;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Thread memory on MongoDB, which has no transactions here: what an append that died between its
 * two steps (the counter, then the messages) or half-way through its messages leaves, written by
 * hand, and how the retry of that append completes it; and messages written for a deleted thread by
 * an append under way, which a thread of the same id created again never sees.
 */
class MongoMemoryHalfDoneWritesTest {
    private static final Instant T0 = Snapshots.T0;
    /** Metadata as an application wrote it: spaces, a trailing zero and an empty array that a re-encoding would change. */
    private static final String METADATA = "{\"topic\": \"travel\", \"price\":1.50,\"a\" :[ ]}";
    private static final RawMongo MONGO = new RawMongo();

    private String collection;
    private SnapshotStore store;
    private MemoryStore memory;

    @AfterAll
    static void disconnect() {
        MONGO.close();
    }

    @BeforeEach
    void open() {
        collection = Snapshots.uniqueId("mem");
        store = SnapshotStores.open(MongoTestServer.url(), Map.of("collection", collection));
        memory = store.memory().orElseThrow();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private MongoCollection<Document> threads() {
        return MONGO.collection(collection + MongoCollections.THREADS_SUFFIX);
    }

    private MongoCollection<Document> messages() {
        return MONGO.collection(collection + MongoCollections.MESSAGES_SUFFIX);
    }

    private MemoryThread create(String id) {
        MemoryThread t = MemoryThread.builder().id(id).resourceId("user").title("title").metadataJson(METADATA)
                .createdAt(T0).updatedAt(T0).build();
        assertThat(memory.createThread(t)).isTrue();
        return t;
    }

    private static StoredMessage.New msg(String run, int index) {
        return StoredMessage.New.builder().runId(run).runIndex(index).role(Role.ASSISTANT)
                .content("{\"text\":\"" + run + "#" + index + "\"}").build();
    }

    private static List<String> names(List<StoredMessage> messages) {
        return messages.stream().map(m -> m.runId() + "#" + m.runIndex()).toList();
    }

    private String gen(String threadId) {
        return threads().find(Filters.eq("_id", threadId)).first().getString("gen");
    }

    @Test
    void anAppendThatDiedAfterMovingTheCounterLeavesAGapAndItsRetryWritesEveryMessageOnce() {
        MemoryThread t = create("th");
        memory.append(t.id(), List.of(msg("r0", 0)), T0);
        // step one of an append of two messages, and nothing after it
        threads().updateOne(Filters.eq("_id", t.id()), Updates.inc("seq", 2L));
        assertThat(names(memory.lastMessages(t.id(), 10))).containsExactly("r0#0");
        // the retry, as core sends it after recovering the run
        assertThat(memory.append(t.id(), List.of(msg("r1", 0), msg("r1", 1)), T0.plusSeconds(1))).isTrue();
        List<StoredMessage> all = memory.listMessages(t.id(), 0, 10).messages();
        assertThat(names(all)).containsExactly("r0#0", "r1#0", "r1#1");
        assertThat(all).extracting(StoredMessage::seq).containsExactly(1L, 4L, 5L);
        assertThat(memory.listMessages(t.id(), 0, 0).total()).isEqualTo(3);
    }

    @Test
    void anAppendThatDiedHalfWayThroughItsMessagesIsCompletedByItsRetryInOrderWithoutDuplicates() {
        MemoryThread t = create("th");
        // step one reserved seqs 1..3 and step two wrote only the first of three messages
        threads().updateOne(Filters.eq("_id", t.id()), Updates.inc("seq", 3L));
        messages().insertOne(new Document("threadId", t.id()).append("gen", gen(t.id())).append("seq", 1L)
                .append("runId", "r1").append("runIndex", 0).append("role", "assistant")
                .append("content", msg("r1", 0).content()).append("createdAt", Date.from(T0)));
        assertThat(memory.append(t.id(), List.of(msg("r1", 0), msg("r1", 1), msg("r1", 2)), T0)).isTrue();
        assertThat(names(memory.lastMessages(t.id(), 10))).containsExactly("r1#0", "r1#1", "r1#2");
        // and a second retry of the whole append changes nothing but the update time
        assertThat(memory.append(t.id(), List.of(msg("r1", 0), msg("r1", 1), msg("r1", 2)), T0.plusSeconds(9))).isTrue();
        assertThat(names(memory.listMessages(t.id(), 0, 10).messages())).containsExactly("r1#0", "r1#1", "r1#2");
        assertThat(memory.findThread(t.id()).orElseThrow().updatedAt()).isEqualTo(T0.plusSeconds(9));
    }

    @Test
    void messagesWrittenForADeletedThreadByAnAppendUnderWayAreNeverSeenByTheThreadCreatedAgain() {
        MemoryThread t = create("th");
        memory.append(t.id(), List.of(msg("r0", 0)), T0);
        String old = gen(t.id());
        assertThat(memory.deleteThread(t.id())).isTrue();
        assertThat(messages().countDocuments(Filters.eq("threadId", t.id()))).isZero();
        create(t.id());
        // an append that reserved its seqs before the deletion writes its message after it
        messages().insertOne(new Document("threadId", t.id()).append("gen", old).append("seq", 2L)
                .append("runId", "late").append("runIndex", 0).append("role", "assistant")
                .append("content", "{}").append("createdAt", Date.from(T0)));
        assertThat(memory.lastMessages(t.id(), 10)).isEmpty();
        assertThat(memory.listMessages(t.id(), 0, 10).total()).isZero();
        memory.append(t.id(), List.of(msg("late", 0)), T0);
        assertThat(names(memory.lastMessages(t.id(), 10))).as("the same run message in the new thread is new")
                .containsExactly("late#0");
    }

    /** The thread's metadata is a string field holding the JSON text verbatim (a BSON document would reformat it). */
    @Test
    void threadMemoryLivesInTwoCollectionsNamedAfterTheRuns() {
        MemoryThread t = create("th");
        memory.append(t.id(), List.of(msg("r", 0)), T0);
        Document thread = threads().find(Filters.eq("_id", t.id())).first();
        assertThat(thread).containsKeys("resourceId", "title", "metadata", "createdAt", "updatedAt", "seq", "gen");
        assertThat(thread.get("seq", Number.class).longValue()).isEqualTo(1);
        assertThat(thread.get("metadata")).isEqualTo(METADATA);
        assertThat(memory.findThread(t.id()).orElseThrow().metadataJson()).isEqualTo(METADATA);
        Document message = messages().find(Filters.eq("threadId", t.id())).first();
        assertThat(message).containsEntry("runId", "r").containsEntry("role", "assistant").containsEntry("gen", gen(t.id()));
        assertThat(message.get("content")).isEqualTo(msg("r", 0).content());
    }
}
