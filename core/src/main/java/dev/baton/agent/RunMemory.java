package dev.baton.agent;

import dev.baton.SnapshotFormatException;
import dev.baton.ThreadOwnershipException;
import dev.baton.internal.MessageCodec;
import dev.baton.internal.RunState;
import dev.baton.internal.ThreadKeys;
import dev.baton.memory.Memory;
import dev.baton.model.Message;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoredMessage;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A run and its memory thread: the thread made ready when a run starts, what the model sees of it,
 * and what the run saves to it. The run loop's side of {@link Memory}, kept out of its public API.
 */
final class RunMemory {
    private RunMemory() {
    }

    /** The agent's memory, on the agent's store and clock unless it was built with a store of its own. */
    static Memory bind(Memory memory, SnapshotStore store, Clock clock) {
        return memory.isBound() ? memory : memory.toBuilder().store(store).clock(clock).build();
    }

    /**
     * A new run that names a thread: the thread {@code threadId} of the run's resource (thread ids are
     * scoped by resource, {@link ThreadKeys}) is created if it does not exist, and its last messages
     * become the run's history. Nothing of the run is saved yet: a run is saved to its thread once it
     * is stored (when it first waits, or stops part-way) or when it ends, so a run stored nowhere (its
     * process died first, or it failed) leaves nothing in the thread.
     *
     * @throws ThreadOwnershipException if the run has no resource and the thread id is a thread a build
     *                                  before thread scoping stored for a resource (nothing is stored)
     */
    static void open(Memory memory, RunState state) {
        String threadId = Objects.requireNonNull(state.threadId);
        MemoryStore s = memory.store();
        Optional<MemoryThread> t = ThreadKeys.find(s, state.resourceId, threadId);
        if (t.isEmpty()) {
            Instant now = memory.clock().instant();
            MemoryThread created = MemoryThread.builder().id(ThreadKeys.key(state.resourceId, threadId))
                    .resourceId(state.resourceId).createdAt(now).updatedAt(now).build();
            t = s.createThread(created) ? Optional.of(created) : s.findThread(created.id());
        }
        if (t.isPresent() && !Objects.equals(t.get().resourceId(), state.resourceId)) {
            throw new ThreadOwnershipException(threadId, t.get().resourceId(), state.resourceId);
        }
        state.threadKey = t.map(MemoryThread::id).orElse(ThreadKeys.key(state.resourceId, threadId));
        List<Message> history = new ArrayList<>();
        if (memory.lastMessages() > 0) {
            for (StoredMessage m : s.lastMessages(state.threadKey, memory.lastMessages())) history.add(decode(m));
        }
        state.history = history;
        state.memory = t.isPresent();   // a thread deleted at once: the run saves nothing, as after any delete
        state.memorySaved = 0;
        state.memoryChecked = true;   // a new run: the thread holds nothing of it
    }

    /** What the model sees: the thread's earlier messages (as they were when the run started), then the run's own. */
    static List<Message> conversation(RunState state) {
        if (state.history.isEmpty()) return state.messages;
        List<Message> all = new ArrayList<>(state.history.size() + state.messages.size());
        all.addAll(state.history);
        all.addAll(state.messages);
        return all;
    }

    /**
     * Saves the run's complete messages not yet in its thread: every message but a last answer whose
     * tool calls have no results yet, so the thread never holds a tool call without its result. Called
     * once the run is stored (before a model call of a claimed run, right after a new run's first
     * write) and with the final answer. Idempotent: a retry after a crash saves nothing twice, so it is
     * not a change the run's snapshot must record at once. A thread deleted meanwhile stays deleted:
     * the run saves nothing more.
     */
    static void save(Agent agent, RunState state) {
        int complete = complete(state.messages);
        if (!state.memory || state.threadId == null || state.memorySaved >= complete) return;
        Memory memory = agent.memory().orElse(null);
        if (memory != null && !state.memoryChecked) {
            // first save since the run was read back: an append that came before a crash is not
            // appended again (it would take sequence numbers for nothing)
            List<StoredMessage> last = memory.store().lastMessages(threadKey(memory, state), state.messages.size());
            if (last.isEmpty() && state.resourceId != null) {
                // nothing under the scoped key: the run's thread may be one stored before thread scoping
                Optional<MemoryThread> t = ThreadKeys.find(memory.store(), state.resourceId, state.threadId);
                if (t.isPresent() && !t.get().id().equals(state.threadKey)) {
                    state.threadKey = t.get().id();
                    last = memory.store().lastMessages(state.threadKey, state.messages.size());
                }
            }
            state.memorySaved = Math.max(state.memorySaved, alreadySaved(last, state));
            state.memoryChecked = true;
            if (state.memorySaved >= complete) return;
        }
        if (memory == null || !append(memory, threadKey(memory, state), state.runId, state.messages.subList(0, complete),
                state.memorySaved)) {
            state.memory = false;
        } else {
            state.memorySaved = complete;
        }
    }

    /** How many of the messages are complete: all but a last answer whose tool calls wait for their results. */
    private static int complete(List<Message> messages) {
        int n = messages.size();
        return n > 0 && messages.get(n - 1) instanceof Message.Assistant a && !a.toolCalls().isEmpty() ? n - 1 : n;
    }

    /** The key the run's thread is stored under: found when the run started or was first saved in this process. */
    private static String threadKey(Memory memory, RunState state) {
        if (state.threadKey == null) state.threadKey = ThreadKeys.key(state.resourceId, Objects.requireNonNull(state.threadId));
        return state.threadKey;
    }

    /** How many of the run's messages its thread holds already, judged from its last messages. */
    private static int alreadySaved(List<StoredMessage> last, RunState state) {
        int saved = 0;
        for (StoredMessage m : last) {
            if (m.runId().equals(state.runId)) saved = Math.max(saved, m.runIndex() + 1);
        }
        return saved;
    }

    /** Appends a run's messages from index {@code from} on; idempotent. False if the thread is gone. */
    private static boolean append(Memory memory, String threadKey, String runId, List<Message> messages, int from) {
        if (from >= messages.size()) return true;
        List<StoredMessage.New> batch = new ArrayList<>(messages.size() - from);
        for (int i = from; i < messages.size(); i++) {
            Message m = messages.get(i);
            batch.add(StoredMessage.New.builder().runId(runId).runIndex(i).role(m.role()).content(MessageCodec.encodeText(m))
                    .build());
        }
        return memory.store().append(threadKey, batch, memory.clock().instant());
    }

    static Message decode(StoredMessage m) {
        try {
            return MessageCodec.decodeText(m.content());
        } catch (IllegalArgumentException e) {
            throw new SnapshotFormatException(m.runId(), "message " + m.seq() + " of thread '" + ThreadKeys.threadId(m.threadId())
                    + "' is not a message (" + e.getMessage() + ")", e);
        }
    }
}
