package dev.baton.memory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.InvalidOptionException;
import dev.baton.SnapshotFormatException;
import dev.baton.ThreadOwnershipException;
import dev.baton.internal.SnapshotCodec;
import dev.baton.model.Message;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Thread memory: an agent with a {@code Memory} sees the earlier messages of the thread a run names,
 * and its runs' messages are saved to that thread, in the agent's store. Threads belong to a
 * resource (typically a user).
 *
 * <pre>{@code
 * Agent agent = Agent.builder("assistant")...store(store)
 *     .memory(Memory.builder().lastMessages(20).build())
 *     .build();
 * agent.generate("Book a flight to SF", RunOptions.builder().threadId("t-1").resourceId("alice").build());
 * agent.generate("Which city was that?", RunOptions.builder().threadId("t-1").resourceId("alice").build());
 *
 * Memory memory = agent.memory().orElseThrow();
 * memory.listThreads("alice", 20, 0);
 * memory.listMessages("t-1", 50, 0);
 * }</pre>
 *
 * <p>The rules (README, "Thread memory"): a run that names a thread that does not exist creates it for
 * its resource; one that names another resource's thread gets {@link ThreadOwnershipException} and
 * nothing is stored. The model sees the thread's last {@link #lastMessages()} messages as they were
 * when the run started, then the run's own. The user's message is saved when the run starts; each
 * step is saved once it is complete (the model's tool calls together with their results), and the
 * final answer when the run ends: the thread never holds a tool call without its result. Saves are
 * idempotent, so a run recovered after a crash saves nothing twice. A subagent's inner run neither
 * reads nor writes memory; the supervisor's thread shows the call and its result.
 *
 * <p>Thread-safe. Thread management needs a store: built with {@link Builder#store}, or bound to
 * the agent's store (then reach it with {@code agent.memory()}).
 */
public final class Memory {

    /** How many earlier messages the model sees, unless {@link Builder#lastMessages} says otherwise. */
    public static final int DEFAULT_LAST_MESSAGES = 20;

    private final int lastMessages;
    private final @Nullable MemoryStore store;
    private final Clock clock;

    private Memory(int lastMessages, @Nullable MemoryStore store, Clock clock) {
        this.lastMessages = lastMessages;
        this.store = store;
        this.clock = clock;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** How many earlier messages of the thread the model sees. */
    public int lastMessages() {
        return lastMessages;
    }

    /** This memory on {@code snapshotStore}'s thread memory, unless it already has a store. */
    public Memory boundTo(SnapshotStore snapshotStore, Clock clock) {
        if (store != null) return this;
        return new Memory(lastMessages, storeOf(snapshotStore), clock);
    }

    /** The store, or an error saying how to give it one. */
    public MemoryStore store() {
        if (store == null) {
            throw new IllegalStateException("this Memory has no store: build it with Memory.builder().store(...), or use"
                    + " agent.memory() of an agent built with it");
        }
        return store;
    }

    private static MemoryStore storeOf(SnapshotStore s) {
        if (!s.capabilities().contains(StoreCapability.THREAD_MEMORY)) {
            throw new InvalidOptionException("memory", s.describe() + " keeps no thread memory (it does not declare"
                    + " THREAD_MEMORY); use a store module that does");
        }
        return s.memory().orElseThrow(() -> new InvalidOptionException("memory", s.describe()
                + " declares THREAD_MEMORY but offers no memory store"));
    }

    // ---- threads ------------------------------------------------------------------------------------

    /** Creates a thread with a new id for {@code resourceId}. */
    public MemoryThread createThread(@Nullable String resourceId, @Nullable String title, @Nullable Map<String, ?> metadata) {
        return createThread(UUID.randomUUID().toString(), resourceId, title, metadata);
    }

    /**
     * Creates the thread {@code threadId} for {@code resourceId}.
     *
     * @throws InvalidOptionException if a thread with this id exists
     */
    public MemoryThread createThread(String threadId, @Nullable String resourceId, @Nullable String title,
                                     @Nullable Map<String, ?> metadata) {
        Objects.requireNonNull(threadId, "threadId");
        Instant now = clock.instant();
        MemoryThread t = new MemoryThread(threadId, resourceId, title, metadata(metadata), now, now);
        if (!store().createThread(t)) throw new InvalidOptionException("threadId", "a thread '" + threadId + "' exists already");
        return t;
    }

    /** The thread with this id. */
    public Optional<MemoryThread> getThreadById(String threadId) {
        return store().findThread(Objects.requireNonNull(threadId, "threadId"));
    }

    /** A resource's threads, newest update first, {@code perPage} from page {@code page} (zero-based), with the total. */
    public ThreadPage listThreads(String resourceId, int perPage, int page) {
        Objects.requireNonNull(resourceId, "resourceId");
        checkPage(perPage, page);
        return store().listThreads(resourceId, (long) page * perPage, perPage);
    }

    /**
     * Sets a thread's title and metadata (null keeps them).
     *
     * @throws InvalidOptionException if there is no such thread
     */
    public MemoryThread updateThread(String threadId, @Nullable String title, @Nullable Map<String, ?> metadata) {
        MemoryThread t = getThreadById(threadId).orElseThrow(() -> new InvalidOptionException("threadId",
                "no thread '" + threadId + "'"));
        MemoryThread updated = t.updated(title != null ? title : t.title(), metadata != null ? metadata(metadata) : t.metadata(),
                clock.instant());
        if (!store().updateThread(updated)) throw new InvalidOptionException("threadId", "no thread '" + threadId + "'");
        return updated;
    }

    /**
     * Deletes a thread and its messages. A run suspended on it goes on when it is resumed, but saves
     * nothing more to memory: the thread stays deleted.
     *
     * @return false if there was no such thread
     */
    public boolean deleteThread(String threadId) {
        return store().deleteThread(Objects.requireNonNull(threadId, "threadId"));
    }

    /** A thread's messages, oldest first, {@code perPage} from page {@code page} (zero-based), with the total. */
    public MessagePage listMessages(String threadId, int perPage, int page) {
        Objects.requireNonNull(threadId, "threadId");
        checkPage(perPage, page);
        StoredMessagePage p = store().listMessages(threadId, (long) page * perPage, perPage);
        List<ThreadMessage> out = new ArrayList<>(p.messages().size());
        for (StoredMessage m : p.messages()) out.add(new ThreadMessage(m.seq(), m.runId(), decode(m), m.createdAt()));
        return new MessagePage(out, p.total());
    }

    // ---- for the run loop (core only) ----------------------------------------------------------------

    /**
     * The thread a new run names, made ready: created for {@code resourceId} if it does not exist;
     * refused if it belongs to another resource. Returns its last messages, oldest first.
     */
    public List<Message> openForRun(String threadId, @Nullable String resourceId) {
        MemoryStore s = store();
        Optional<MemoryThread> t = s.findThread(threadId);
        if (t.isEmpty()) {
            Instant now = clock.instant();
            if (!s.createThread(new MemoryThread(threadId, resourceId, null, null, now, now))) t = s.findThread(threadId);
        }
        if (t.isPresent() && !Objects.equals(t.get().resourceId(), resourceId)) {
            throw new ThreadOwnershipException(threadId, t.get().resourceId(), resourceId);
        }
        List<Message> history = new ArrayList<>();
        if (lastMessages > 0) for (StoredMessage m : s.lastMessages(threadId, lastMessages)) history.add(decode(m));
        return history;
    }

    /** Saves a run's messages from index {@code from} on; idempotent. False if the thread is gone. */
    public boolean save(String threadId, String runId, List<Message> messages, int from) {
        if (from >= messages.size()) return true;
        List<StoredMessage.New> batch = new ArrayList<>(messages.size() - from);
        for (int i = from; i < messages.size(); i++) {
            Message m = messages.get(i);
            batch.add(new StoredMessage.New(runId, i, role(m), encode(m)));
        }
        return store().append(threadId, batch, clock.instant());
    }

    private static String role(Message m) {
        if (m instanceof Message.User) return "user";
        if (m instanceof Message.Assistant) return "assistant";
        return "tool";
    }

    private static String encode(Message m) {
        try {
            return SnapshotCodec.JSON.writerFor(Message.class).writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a message: " + e.getMessage(), e);
        }
    }

    private static Message decode(StoredMessage m) {
        try {
            return SnapshotCodec.JSON.readValue(m.content(), Message.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new SnapshotFormatException(m.runId(), "message " + m.seq() + " of thread '" + m.threadId()
                    + "' is not a message (" + e.getMessage() + ")", e);
        }
    }

    private static ObjectNode metadata(@Nullable Map<String, ?> metadata) {
        return metadata == null ? SnapshotCodec.JSON.createObjectNode() : SnapshotCodec.JSON.valueToTree(metadata);
    }

    private static void checkPage(int perPage, int page) {
        if (perPage < 0) throw new InvalidOptionException("perPage", "must not be negative, was " + perPage);
        if (page < 0) throw new InvalidOptionException("page", "must not be negative, was " + page);
    }

    /** Builder of {@link Memory}. */
    public static final class Builder {
        private int lastMessages = DEFAULT_LAST_MESSAGES;
        private @Nullable SnapshotStore store;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /** How many earlier messages of the thread the model sees (default 20; 0: none, but messages are still saved). */
        public Builder lastMessages(int n) {
            if (n < 0) throw new InvalidOptionException("lastMessages", "must not be negative, was " + n);
            this.lastMessages = n;
            return this;
        }

        /** The store whose thread memory to use (default: the agent's store). */
        public Builder store(SnapshotStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /** The clock for thread times (default: the system clock; an agent binds its own). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public Memory build() {
            return new Memory(lastMessages, store == null ? null : storeOf(store), clock);
        }
    }
}
