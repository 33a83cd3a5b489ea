package dev.baton.bench;

import java.util.List;

/**
 * The hand-written baseline of thread memory: the same reads as a store's {@code lastMessages}
 * and {@code listThreads}, sent straight to the database with its own driver, on the same data and
 * indexes, with nothing of Baton in between.
 */
public interface RawMemory extends AutoCloseable {

    /** The contents of the last {@code n} messages of the thread, oldest first. */
    List<String> lastMessages(String threadId, String resourceId, int n);

    /** The first {@code limit} thread ids of the resource, newest update first, and its total. */
    Threads threads(String resourceId, int limit);

    @Override
    void close();

    /** A page of thread ids and the total. */
    record Threads(long total, List<String> ids) {
    }
}
