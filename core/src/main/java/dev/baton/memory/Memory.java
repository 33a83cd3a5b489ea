package dev.baton.memory;

import dev.baton.Ids;
import dev.baton.InvalidOptionException;
import dev.baton.SnapshotFormatException;
import dev.baton.ThreadAlreadyExistsException;
import dev.baton.ThreadNotFoundException;
import dev.baton.ThreadOwnershipException;
import dev.baton.internal.FreeText;
import dev.baton.internal.MessageCodec;
import dev.baton.internal.SnapshotCodec;
import dev.baton.internal.ThreadKeys;
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
 * resource (typically a user), and thread ids are scoped by resource: a thread is identified by its
 * resource and its thread id, so alice's thread {@code t-1} and carol's thread {@code t-1} are two
 * threads, and neither can see, find or block the other (a thread without a resource is one more scope).
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
 * memory.listMessages("alice", "t-1", 50, 0);
 * }</pre>
 *
 * <p>The rules (docs/rules.md, "The memory rules"): a run that names a thread its resource does not
 * have creates it for its resource, whatever threads of that id other resources have. (A run without
 * a resource naming a thread that a build before thread scoping stored for a resource under its bare
 * id gets {@link ThreadOwnershipException} and nothing is stored.) The model sees the thread's last {@link #lastMessages()} messages as they were
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
     * @throws InvalidOptionException ({@code title}) a title holding NUL or an unpaired surrogate
     */
    public MemoryThread createThread(@Nullable String resourceId, @Nullable String title, @Nullable Map<String, ?> metadata) {
        return createThread(UUID.randomUUID().toString(), resourceId, title, metadata);
    }

    /**
     * Creates the thread {@code threadId} of {@code resourceId}. Thread ids are scoped by resource:
     * another resource may have a thread of the same id, which this neither sees nor touches.
     *
     * @param threadId   the thread's id
     * @param resourceId the owner, or null for a thread without owner
     * @param title      a title, or null
     * @param metadata   the application's metadata (any JSON-able map), or null for none
     * @return the thread
     * @throws ThreadAlreadyExistsException if the resource has a thread with this id
     * @throws InvalidOptionException       a thread or resource id beyond {@link Ids#LIMIT}, or a title holding
     *                                      NUL or an unpaired surrogate
     */
    public MemoryThread createThread(String threadId, @Nullable String resourceId, @Nullable String title,
                                     @Nullable Map<String, ?> metadata) {
        Ids.require("threadId", threadId);
        Ids.optional("resourceId", resourceId);
        FreeText.check("title", title);
        Instant now = clock.instant();
        MemoryThread t = MemoryThread.builder().id(ThreadKeys.key(resourceId, threadId)).resourceId(resourceId).title(title)
                .metadataJson(metadataJson(metadata)).createdAt(now).updatedAt(now).build();
        if (ThreadKeys.find(store(), resourceId, threadId).isPresent() || !store().createThread(t)) {
            throw new ThreadAlreadyExistsException(threadId);
        }
        return ThreadKeys.shown(t);
    }

    /**
     * The thread {@code threadId} of {@code resourceId}.
     *
     * @param resourceId the owner, or null for a thread without owner
     * @param threadId   the thread's id
     * @return the thread, or empty if the resource has none of this id
     * @throws InvalidOptionException a thread or resource id beyond {@link Ids#LIMIT}
     */
    public Optional<MemoryThread> findThread(@Nullable String resourceId, String threadId) {
        return stored(resourceId, threadId).map(ThreadKeys::shown);
    }

    /** The resource's thread as stored (its id the store's key), if it is the resource's. */
    private Optional<MemoryThread> stored(@Nullable String resourceId, String threadId) {
        Ids.require("threadId", threadId);
        Ids.optional("resourceId", resourceId);
        return ThreadKeys.find(store(), resourceId, threadId).filter(t -> Objects.equals(t.resourceId(), resourceId));
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
        ThreadPage p = store().listThreads(resourceId, (long) page * perPage, perPage);
        List<MemoryThread> shown = new ArrayList<>(p.threads().size());
        for (MemoryThread t : p.threads()) shown.add(ThreadKeys.shown(t));
        return new ThreadPage(shown, p.total());
    }

    /**
     * Sets the title and metadata (null keeps them) of the thread {@code threadId} of {@code resourceId}.
     *
     * @param resourceId the owner, or null for a thread without owner
     * @param threadId   the thread's id
     * @param title      the new title, or null to keep it
     * @param metadata   the new metadata (replacing the old), or null to keep it
     * @return the thread as updated
     * @throws ThreadNotFoundException if the resource has no such thread
     * @throws InvalidOptionException  a thread or resource id beyond {@link Ids#LIMIT}, or a title holding NUL or
     *                                 an unpaired surrogate
     */
    public MemoryThread updateThread(@Nullable String resourceId, String threadId, @Nullable String title,
                                     @Nullable Map<String, ?> metadata) {
        FreeText.check("title", title);
        MemoryThread t = stored(resourceId, threadId).orElseThrow(() -> new ThreadNotFoundException(threadId));
        MemoryThread updated = t.updated(title != null ? title : t.title(),
                metadata != null ? metadataJson(metadata) : t.metadataJson(), clock.instant());
        if (!store().updateThread(updated)) throw new ThreadNotFoundException(threadId);
        return ThreadKeys.shown(updated);
    }

    /**
     * Deletes the thread {@code threadId} of {@code resourceId} and its messages. A run suspended on
     * it goes on when it is resumed, but saves nothing more to memory: the thread stays deleted.
     *
     * @param resourceId the owner, or null for a thread without owner
     * @param threadId   the thread's id
     * @return false if the resource had no such thread
     * @throws InvalidOptionException a thread or resource id beyond {@link Ids#LIMIT}
     */
    public boolean deleteThread(@Nullable String resourceId, String threadId) {
        return stored(resourceId, threadId).map(t -> store().deleteThread(t.id())).orElse(false);
    }

    /**
     * The messages of the thread {@code threadId} of {@code resourceId}, oldest first, {@code perPage}
     * from page {@code page} (zero-based), with the total.
     *
     * @param resourceId the owner, or null for a thread without owner
     * @param threadId   the thread's id
     * @param perPage    the page size ({@code 0}: only the total)
     * @param page       the zero-based page
     * @return the page and the thread's message count (empty, 0 for a thread the resource does not have)
     * @throws InvalidOptionException  for a negative {@code perPage} or {@code page}, or a thread or resource id
     *                                 beyond {@link Ids#LIMIT}
     * @throws SnapshotFormatException if a stored message cannot be read
     */
    public MessagePage listMessages(@Nullable String resourceId, String threadId, int perPage, int page) {
        Ids.require("threadId", threadId);
        Ids.optional("resourceId", resourceId);
        checkPage(perPage, page);
        StoredMessagePage p = store().listMessages(ThreadKeys.key(resourceId, threadId), (long) page * perPage, perPage);
        if (p.total() == 0) {
            // nothing under the key: a thread the resource has under its bare id (stored before thread
            // scoping), or none; for no resource, only a thread without owner counts
            Optional<MemoryThread> t = stored(resourceId, threadId);
            if (t.isEmpty()) return new MessagePage(List.of(), 0);
            if (!t.get().id().equals(ThreadKeys.key(resourceId, threadId))) {
                p = store().listMessages(t.get().id(), (long) page * perPage, perPage);
            }
        } else if (resourceId == null && stored(null, threadId).isEmpty()) {
            return new MessagePage(List.of(), 0);   // the bare id is a resource's thread, stored before thread scoping
        }
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
            throw new SnapshotFormatException(m.runId(), "message " + m.seq() + " of thread '" + ThreadKeys.threadId(m.threadId())
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
