package dev.baton.bench;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Sorts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.bson.Document;

/**
 * Thread memory by hand with the driver on the store's collections ({@code <runs>_threads},
 * {@code <runs>_messages}): last messages are the thread document (for its incarnation, {@code gen})
 * and {@code find({threadId, gen}).sort({seq: -1}).limit(20)}; a resource's threads are
 * {@code find({resourceId}).sort({updatedAt: -1, _id: -1}).limit(20)} and {@code countDocuments}.
 */
final class MongoRawMemory implements RawMemory {
    private final MongoCollection<Document> threads;
    private final MongoCollection<Document> messages;

    MongoRawMemory(MongoDatabase db, String runs) {
        this.threads = db.getCollection(runs + "_threads");
        this.messages = db.getCollection(runs + "_messages");
    }

    @Override
    public List<String> lastMessages(String threadId, String resourceId, int n) {
        Document t = threads.find(eq("_id", threadId)).first();
        if (t == null) return List.of();
        List<String> out = new ArrayList<>(n);
        for (Document d : messages.find(and(eq("threadId", threadId), eq("gen", t.get("gen")))).sort(Sorts.descending("seq")).limit(n)) {
            out.add(d.getString("content"));
        }
        Collections.reverse(out);
        return out;
    }

    @Override
    public Threads threads(String resourceId, int limit) {
        List<String> ids = new ArrayList<>(limit);
        for (Document d : threads.find(eq("resourceId", resourceId))
                .sort(Sorts.orderBy(Sorts.descending("updatedAt"), Sorts.descending("_id"))).limit(limit)) {
            ids.add(d.getString("_id"));
        }
        return new Threads(threads.countDocuments(eq("resourceId", resourceId)), ids);
    }

    @Override
    public void close() {
        // the backend's client is closed with the backend
    }
}
