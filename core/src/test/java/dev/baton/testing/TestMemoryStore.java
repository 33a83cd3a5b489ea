package dev.baton.testing;

import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import dev.baton.store.StoredMessagePage;
import dev.baton.store.ThreadPage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A small synchronized thread memory for core's own tests. */
public final class TestMemoryStore implements MemoryStore {
    private final Map<String, MemoryThread> threads = new HashMap<>();
    private final Map<String, List<StoredMessage>> messages = new HashMap<>();

    @Override
    public synchronized boolean createThread(MemoryThread thread) {
        if (threads.putIfAbsent(thread.id(), thread) != null) return false;
        messages.put(thread.id(), new ArrayList<>());
        return true;
    }

    @Override
    public synchronized Optional<MemoryThread> findThread(String threadId) {
        return Optional.ofNullable(threads.get(threadId));
    }

    @Override
    public synchronized boolean updateThread(MemoryThread thread) {
        MemoryThread cur = threads.get(thread.id());
        if (cur == null) return false;
        threads.put(thread.id(), cur.updated(thread.title(), thread.metadataJson(), thread.updatedAt()));
        return true;
    }

    @Override
    public synchronized ThreadPage listThreads(String resourceId, long offset, int limit) {
        List<MemoryThread> all = threads.values().stream().filter(t -> resourceId.equals(t.resourceId()))
                .sorted(Comparator.comparing(MemoryThread::updatedAt).thenComparing(MemoryThread::id).reversed()).toList();
        return new ThreadPage(all.stream().skip(offset).limit(limit).toList(), all.size());
    }

    @Override
    public synchronized boolean deleteThread(String threadId) {
        messages.remove(threadId);
        return threads.remove(threadId) != null;
    }

    @Override
    public synchronized boolean append(String threadId, List<StoredMessage.New> batch, Instant at) {
        List<StoredMessage> list = messages.get(threadId);
        if (list == null) return false;
        for (StoredMessage.New m : batch) {
            boolean seen = list.stream().anyMatch(x -> x.runId().equals(m.runId()) && x.runIndex() == m.runIndex());
            if (seen) continue;
            list.add(StoredMessage.builder().threadId(threadId).seq(list.size() + 1L).runId(m.runId()).runIndex(m.runIndex())
                    .role(m.role()).content(m.content()).createdAt(at).build());
        }
        MemoryThread t = threads.get(threadId);
        threads.put(threadId, t.toBuilder().updatedAt(at).build());
        return true;
    }

    @Override
    public synchronized List<StoredMessage> lastMessages(String threadId, int n) {
        List<StoredMessage> list = messages.getOrDefault(threadId, List.of());
        return List.copyOf(list.subList(Math.max(0, list.size() - n), list.size()));
    }

    @Override
    public synchronized StoredMessagePage listMessages(String threadId, long offset, int limit) {
        List<StoredMessage> list = messages.getOrDefault(threadId, List.of());
        return new StoredMessagePage(list.stream().skip(offset).limit(limit).toList(), list.size());
    }
}
