package dev.baton.memory;

import dev.baton.InvalidOptionException;
import dev.baton.SnapshotFormatException;
import dev.baton.ThreadAlreadyExistsException;
import dev.baton.ThreadNotFoundException;
import dev.baton.ThreadOwnershipException;
import dev.baton.internal.FreeText;
import dev.baton.internal.MessageCodec;
import dev.baton.internal.SnapshotCodec;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.store.StoredMessage;
import dev.baton.store.StoredMessagePage;
import dev.baton.store.ThreadPage;
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
 * <p>Look-ups: {@code findThread} returns an {@code Optional}; operations on a thread that does not
 * exist throw {@link ThreadNotFoundException}. Immutable and thread-safe. Thread management needs a
 * store: built with {@link Builder#store}, or bound to the agent's store (then reach it with
 * {@code agent.memory()}). It closes nothing: the store belongs to whoever opened it.
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

    /** {@return a builder: 20 last messages, no store (the agent's), the system clock} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding this memory's settings (and its store, if it has one)} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.lastMessages = lastMessages;
        b.memoryStore = store;
        b.clock = clock;
        return b;
    }

    /** {@return how many earlier messages of the thread the model sees} */
    public int lastMessages() {
        return lastMessages;
    }

    /** {@return the clock thread and message times are taken from (an agent binds its own)} */
    public Clock clock() {
        return clock;
    }

    /**
     * {@return true if this memory has a store: built with {@link Builder#store}, or the one
     * {@code agent.memory()} returns}
     */
    public boolean isBound() {
        return store != null;
    }

    /**
     * The thread memory store this memory reads and writes.
     *
     * @return the store
     * @throws IllegalStateException if this memory has no store ({@link #isBound()} false)
     */
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
                    + " the capability THREAD_MEMORY); use a store module that does");
        }
        return s.memory().orElseThrow(() -> new InvalidOptionException("memory", s.describe()
                + " declares the capability THREAD_MEMORY but offers no memory store"));
    }

    // ---- threads ------------------------------------------------------------------------------------

    /**
     * Creates a thread with a new id for {@code resourceId}.
     *
     * @param resourceId the owner, or null for a thread without owner
     * @param title      a title, or null
     * @param metadata   the application's metadata (any JSON-able map), or null for none
     * @return the thread
     */
    public MemoryThread createThread(@Nullable String resourceId, @Nullable String title, @Nullable Map<String, ?> metadata) {
        return createThread(UUID.randomUUID().toString(), resourceId, title, metadata);
    }

    /**
     * Creates the thread {@code threadId} for {@code resourceId}.
     *
     * @param threadId   the thread's id
     * @param resourceId the owner, or null for a thread without owner
     * @param title      a title, or null
     * @param metadata   the application's metadata (any JSON-able map), or null for none
     * @return the thread
     * @throws ThreadAlreadyExistsException if a thread with this id exists
     */
    public MemoryThread createThread(String threadId, @Nullable String resourceId, @Nullable String title,
                                     @Nullable Map<String, ?> metadata) {
        Objects.requireNonNull(threadId, "threadId");
        FreeText.check("title", title);
        Instant now = clock.instant();
        MemoryThread t = MemoryThread.builder().id(threadId).resourceId(resourceId).title(title)
                .metadataJson(metadataJson(metadata)).createdAt(now).updatedAt(now).build();
        if (!store().createThread(t)) throw new ThreadAlreadyExistsException(threadId);
        return t;
    }

    /**
     * The thread with this id.
     *
     * @param threadId the thread's id
     * @return the thread, or empty if there is none
     */
    public Optional<MemoryThread> findThread(String threadId) {
        return store().findThread(Objects.requireNonNull(threadId, "threadId"));
    }

    /**
     * A resource's threads, newest update first, {@code perPage} from page {@code page} (zero-based), with the total.
     *
     * @param resourceId the owner
     * @param perPage    the page size ({@code 0}: only the total)
     * @param page       the zero-based page
     * @return the page and the total
     * @throws InvalidOptionException for a negative {@code perPage} or {@code page}
     */
    public ThreadPage listThreads(String resourceId, int perPage, int page) {
        Objects.requireNonNull(resourceId, "resourceId");
        checkPage(perPage, page);
        return store().listThreads(resourceId, (long) page * perPage, perPage);
    }

    /**
     * Sets a thread's title and metadata (null keeps them).
     *
     * @param threadId the thread's id
     * @param title    the new title, or null to keep it
     * @param metadata the new metadata (replacing the old), or null to keep it
     * @return the thread as updated
     * @throws ThreadNotFoundException if there is no such thread
     */
    public MemoryThread updateThread(String threadId, @Nullable String title, @Nullable Map<String, ?> metadata) {
        FreeText.check("title", title);
        MemoryThread t = findThread(threadId).orElseThrow(() -> new ThreadNotFoundException(threadId));
        MemoryThread updated = t.updated(title != null ? title : t.title(),
                metadata != null ? metadataJson(metadata) : t.metadataJson(), clock.instant());
        if (!store().updateThread(updated)) throw new ThreadNotFoundException(threadId);
        return updated;
    }

    /**
     * Deletes a thread and its messages. A run suspended on it goes on when it is resumed, but saves
     * nothing more to memory: the thread stays deleted.
     *
     * @param threadId the thread's id
     * @return false if there was no such thread
     */
    public boolean deleteThread(String threadId) {
        return store().deleteThread(Objects.requireNonNull(threadId, "threadId"));
    }

    /**
     * A thread's messages, oldest first, {@code perPage} from page {@code page} (zero-based), with the total.
     *
     * @param threadId the thread's id
     * @param perPage  the page size ({@code 0}: only the total)
     * @param page     the zero-based page
     * @return the page and the thread's message count (empty, 0 for a thread that does not exist)
     * @throws InvalidOptionException  for a negative {@code perPage} or {@code page}
     * @throws SnapshotFormatException if a stored message cannot be read
     */
    public MessagePage listMessages(String threadId, int perPage, int page) {
        Objects.requireNonNull(threadId, "threadId");
        checkPage(perPage, page);
        StoredMessagePage p = store().listMessages(threadId, (long) page * perPage, perPage);
        List<ThreadMessage> out = new ArrayList<>(p.messages().size());
        for (StoredMessage m : p.messages()) {
            out.add(new ThreadMessage(m.seq(), m.runId(), decode(m), m.createdAt()));
        }
        return new MessagePage(out, p.total());
    }

    private static dev.baton.model.Message decode(StoredMessage m) {
        try {
            return MessageCodec.decodeText(m.content());
        } catch (IllegalArgumentException e) {
            throw new SnapshotFormatException(m.runId(), "message " + m.seq() + " of thread '" + m.threadId()
                    + "' is not a message (" + e.getMessage() + ")", e);
        }
    }

    private static String metadataJson(@Nullable Map<String, ?> metadata) {
        if (metadata == null) return "{}";
        try {
            return SnapshotCodec.JSON.writeValueAsString(SnapshotCodec.JSON.valueToTree(metadata));
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidOptionException("metadata", "cannot be written as JSON: " + e.getMessage());
        }
    }

    private static void checkPage(int perPage, int page) {
        if (perPage < 0) throw new InvalidOptionException("perPage", "must not be negative, was " + perPage);
        if (page < 0) throw new InvalidOptionException("page", "must not be negative, was " + page);
    }

    /** Builder of {@link Memory}. Not thread-safe. */
    public static final class Builder {
        private int lastMessages = DEFAULT_LAST_MESSAGES;
        private @Nullable SnapshotStore store;
        private @Nullable MemoryStore memoryStore;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /**
         * How many earlier messages of the thread the model sees.
         *
         * @param n default 20; 0: none, but messages are still saved
         * @return this builder
         * @throws InvalidOptionException if negative
         */
        public Builder lastMessages(int n) {
            if (n < 0) throw new InvalidOptionException("lastMessages", "must not be negative, was " + n);
            this.lastMessages = n;
            return this;
        }

        /**
         * The store whose thread memory to use (default: the agent's store). It must declare
         * {@link StoreCapability#THREAD_MEMORY}; {@link #build()} checks it.
         *
         * @param store the store
         * @return this builder
         */
        public Builder store(SnapshotStore store) {
            this.store = Objects.requireNonNull(store, "store");
            this.memoryStore = null;
            return this;
        }

        /**
         * The clock for thread times (default: the system clock; an agent binds its own).
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * {@return the memory}
         *
         * @throws InvalidOptionException naming the capability and the store, if a store was given that keeps no thread memory
         */
        public Memory build() {
            MemoryStore s = store != null ? storeOf(store) : memoryStore;
            return new Memory(lastMessages, s, clock);
        }
    }
}
