package dev.baton.store.redis;

import dev.baton.StorageException;
import dev.baton.model.Role;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import dev.baton.store.StoredMessagePage;
import dev.baton.store.ThreadPage;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The thread memory of a {@link RedisSnapshotStore}, on the store's connection, reached through
 * {@link RedisSnapshotStore#memory()}.
 *
 * <p>Layout (see {@link RedisKeys}): all keys of one resource's threads share a hash tag, so a thread,
 * its messages, its run-message ids and the resource's thread listing are in one slot and every
 * write is one Lua script (atomic, also on a Cluster). A thread without a resource has a slot of its
 * own. Since most calls know only the thread id, a lookup key in the thread id's slot names the
 * owner's slot and the thread's incarnation (a random nonce, {@code rsv}, also stored in the thread
 * hash): every script checks that nonce, so a call never acts on another incarnation of the thread
 * (deleted and created again) or on a leftover. The lookup values are cached (bounded); a stale entry
 * fails the nonce check and is read again, so the cache saves the lookup round trip without ever
 * giving a wrong answer.
 *
 * <p>Appends take their {@code seq} from a counter in the thread hash ({@code HINCRBY}) and skip a
 * message whose {@code (runId, runIndex)} is in the thread's id hash, in one script: O(1) per message,
 * idempotent, whole. Seqs run from 1 without gaps, so the last messages and any page are a range of
 * seqs read with one {@code HMGET}. A resource's threads are a sorted set scored by update time:
 * a page and its total are one script.
 *
 * <p>Creating a thread is the one call that touches two slots, in three steps: it reserves the id in
 * the lookup key (state "pending"), creates the thread in the owner's slot, and confirms the
 * reservation with a compare-and-set (state "complete"); only complete places are read. A pending
 * reservation (a creation under way, or one that died) and a complete one whose thread is gone (a
 * deletion that died half-way) are taken over by the next creation of that id; a creation whose
 * reservation was taken over fails to confirm, deletes what it wrote and returns false, and the
 * creation that holds the reservation clears any thread such a creation left in its way (as often as
 * one does), so of racing creations exactly one succeeds. Only if a creation's process dies after writing the thread and
 * before confirming, and the id is then created for another resource, does the dead creation's thread
 * stay behind: unreachable by id, but counted in its resource's listing until a thread of that id is
 * created for that resource again.
 */
final class RedisMemoryStore implements MemoryStore {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int NONCE_LENGTH = 16;
    private static final int CACHE_LIMIT = 10_000;

    private static final LuaScript RESERVE = LuaScript.load("mreserve", false);
    private static final LuaScript SWAP = LuaScript.compose("swap", "lookup");
    private static final LuaScript CREATE = LuaScript.load("mcreate", false);
    private static final LuaScript WIPE = LuaScript.load("mwipe", false);
    private static final LuaScript UPDATE = LuaScript.load("mupdate", false);
    private static final LuaScript APPEND = LuaScript.load("mappend", false);
    private static final LuaScript READ = LuaScript.load("mread", false);
    private static final LuaScript LIST = LuaScript.load("mlist", false);

    /**
     * Where a thread is: the lookup key's value, {@code nonce + state + owner}, state {@code p} while its
     * creation is under way (or died), {@code c} once the creation is complete.
     */
    private record Place(String value, String nonce, boolean confirmed, String owner) {
        static @Nullable Place of(@Nullable String value) {
            if (value == null || value.length() <= NONCE_LENGTH + 1) return null;
            return new Place(value, value.substring(0, NONCE_LENGTH), value.charAt(NONCE_LENGTH) == 'c',
                    value.substring(NONCE_LENGTH + 1));
        }

        static Place pending(String nonce, String owner) {
            return of(nonce + 'p' + owner);
        }

        Place confirm() {
            return of(nonce + 'c' + owner);
        }
    }

    private final RedisAccess access;
    private final RedisClusterCommands<String, String> redis;
    private final RedisKeys keys;
    private final String description;
    private final Map<String, Place> places = new ConcurrentHashMap<>();

    RedisMemoryStore(RedisAccess access) {
        this.access = access;
        this.redis = access.redis;
        this.keys = access.keys;
        this.description = access.description;
    }

    @Override
    public boolean createThread(MemoryThread thread) {
        Objects.requireNonNull(thread, "thread");
        return access.call("creating thread '" + thread.id() + "'", null, () -> create(thread));
    }

    private boolean create(MemoryThread t) {
        String owner = RedisKeys.owner(t.resourceId(), t.id());
        String lookup = keys.threadLookup(t.id());
        Place mine = Place.pending(nonce(), owner);
        for (int attempt = 0; ; attempt++) {
            if (attempt == 100) {
                throw new StorageException(description + ": the id of thread '" + t.id() + "' kept changing hands; not created");
            }
            Place held = Place.of(RESERVE.run(redis, ScriptOutputType.VALUE, new String[] {lookup}, mine.value()));
            if (held == null) break;
            if (held.confirmed() && exists(t.id(), held)) return false;
            // a creation under way, or one that died, or a deletion that died half-way: take the id over unless it
            // changed meanwhile (a creation under way then fails to confirm, and clears what it wrote)
            if (swap(lookup, held.value(), mine.value())) break;
        }
        String[] threadKeys = threadKeys(owner, t.id());
        List<String> args = new ArrayList<>(List.of(mine.nonce(), t.id(), t.resourceId() == null ? "0" : "1",
                millis(t.updatedAt())));
        put(args, "id", t.id());
        put(args, "resourceId", t.resourceId());
        put(args, "title", t.title());
        put(args, "metadata", t.metadataJson());
        put(args, "createdAt", millis(t.createdAt()));
        put(args, "updatedAt", millis(t.updatedAt()));
        String[] argv = args.toArray(String[]::new);
        for (int attempt = 0; ; attempt++) {
            List<Object> r = CREATE.run(redis, ScriptOutputType.MULTI, threadKeys, argv);
            if ((Long) r.get(0) == 1L) break;
            // another creation took the id over: it creates the thread (or is taken over in turn)
            if (!mine.value().equals(redis.get(lookup))) return false;
            // this slot has a thread of this id that no complete creation names (the lookup is ours): what a
            // creation that died before confirming, or lost the id, left behind, or is writing right now
            // (it will fail to confirm); ours to clear, as often as such a creation writes one, while the id is ours
            if (attempt == 100) {
                throw new StorageException(description + ": thread '" + t.id() + "' kept being written by creations that"
                        + " lost its id; not created");
            }
            WIPE.run(redis, ScriptOutputType.INTEGER, threadKeys, (String) r.get(1), t.id());
        }
        Place done = mine.confirm();
        if (!swap(lookup, mine.value(), done.value())) {
            // another creation took the id over before we confirmed: it wins, and ours goes
            WIPE.run(redis, ScriptOutputType.INTEGER, threadKeys, mine.nonce(), t.id());
            return false;
        }
        places.put(t.id(), done);
        return true;
    }

    private boolean exists(String threadId, Place p) {
        return p.nonce().equals(redis.hget(threadKeys(p.owner(), threadId)[0], "rsv"));
    }

    private boolean swap(String key, String expected, String replacement) {
        Long r = SWAP.run(redis, ScriptOutputType.INTEGER, new String[] {key}, expected, replacement);
        return r != null && r == 1L;
    }

    @Override
    public Optional<MemoryThread> findThread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return access.call("reading thread '" + threadId + "'", null, () -> Optional.ofNullable(onThread(threadId, p -> {
            List<io.lettuce.core.KeyValue<String, String>> f = redis.hmget(threadKeys(p.owner(), threadId)[0],
                    "rsv", "id", "resourceId", "title", "metadata", "createdAt", "updatedAt");
            if (!p.nonce().equals(f.get(0).getValueOrElse(null))) return null;
            return thread(threadId, f.subList(1, f.size()).stream().map(kv -> kv.getValueOrElse(null)).toList());
        })));
    }

    @Override
    public boolean updateThread(MemoryThread thread) {
        Objects.requireNonNull(thread, "thread");
        String id = thread.id();
        return access.call("updating thread '" + id + "'", null, () -> onThread(id, p -> {
            String[] k = threadKeys(p.owner(), id);
            Long r = UPDATE.run(redis, ScriptOutputType.INTEGER, new String[] {k[0], k[3]}, p.nonce(), id,
                    millis(thread.updatedAt()), thread.title() == null ? "0" : "1",
                    thread.title() == null ? "" : thread.title(), thread.metadataJson());
            return r != null && r == 1L ? Boolean.TRUE : null;
        }) != null);
    }

    @Override
    public ThreadPage listThreads(String resourceId, long offset, int limit) {
        Objects.requireNonNull(resourceId, "resourceId");
        checkPage(offset, limit);
        return access.call("listing the threads of resource '" + resourceId + "'", null, () -> {
            String owner = RedisKeys.owner(resourceId, "");
            List<Object> r = LIST.run(redis, ScriptOutputType.MULTI, new String[] {keys.memoryBase(owner) + "threads"},
                    keys.memoryBase(owner), Long.toString(offset), Integer.toString(limit));
            List<MemoryThread> threads = new ArrayList<>(r.size() - 1);
            for (int i = 1; i < r.size(); i++) {
                @SuppressWarnings("unchecked")
                List<Object> f = (List<Object>) r.get(i);
                List<String> fields = f.stream().map(o -> (String) o).toList();
                if (fields.get(0) != null) threads.add(thread(fields.get(0), fields));
            }
            return new ThreadPage(threads, (Long) r.get(0));
        });
    }

    @Override
    public boolean deleteThread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return access.call("deleting thread '" + threadId + "'", null, () -> {
            places.remove(threadId);
            String lookup = keys.threadLookup(threadId);
            Place p = Place.of(redis.get(lookup));
            if (p == null || !p.confirmed()) return false;   // not created (yet)
            Long r = WIPE.run(redis, ScriptOutputType.INTEGER, threadKeys(p.owner(), threadId), p.nonce(), threadId);
            if (r == null || r != 1L) return false;
            swap(lookup, p.value(), "");
            return true;
        });
    }

    @Override
    public boolean append(String threadId, List<StoredMessage.New> messages, Instant at) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(at, "at");
        List<StoredMessage.New> batch = List.copyOf(messages);
        String when = millis(at);
        return access.call("appending to thread '" + threadId + "'", null, () -> onThread(threadId, p -> {
            List<String> args = new ArrayList<>(3 + 2 * batch.size());
            args.add(p.nonce());
            args.add(threadId);
            args.add(when);
            for (StoredMessage.New m : batch) {
                args.add(m.runIndex() + ":" + m.runId());
                args.add(pack(m, when));
            }
            Long r = APPEND.run(redis, ScriptOutputType.INTEGER, threadKeys(p.owner(), threadId), args.toArray(String[]::new));
            return r != null && r == 1L ? Boolean.TRUE : null;
        }) != null);
    }

    @Override
    public List<StoredMessage> lastMessages(String threadId, int n) {
        Objects.requireNonNull(threadId, "threadId");
        if (n < 0) throw new IllegalArgumentException("n must be >= 0, was " + n);
        return access.call("reading the last messages of thread '" + threadId + "'", null, () -> {
            StoredMessagePage page = read(threadId, "last", n, 0);
            return page == null ? List.<StoredMessage>of() : page.messages();
        });
    }

    @Override
    public StoredMessagePage listMessages(String threadId, long offset, int limit) {
        Objects.requireNonNull(threadId, "threadId");
        checkPage(offset, limit);
        return access.call("listing the messages of thread '" + threadId + "'", null, () -> {
            StoredMessagePage page = read(threadId, "page", offset, limit);
            return page == null ? new StoredMessagePage(List.of(), 0) : page;
        });
    }

    private @Nullable StoredMessagePage read(String threadId, String mode, long a, int b) {
        return onThread(threadId, p -> {
            String[] k = threadKeys(p.owner(), threadId);
            List<Object> r = READ.run(redis, ScriptOutputType.MULTI, new String[] {k[0], k[1]}, p.nonce(), mode,
                    Long.toString(a), Integer.toString(b));
            if (r == null || r.isEmpty() || r.get(0) == null) return null;   // no such thread here
            long total = (Long) r.get(0);
            long seq = (Long) r.get(1);
            List<StoredMessage> messages = new ArrayList<>(r.size() - 2);
            for (int i = 2; i < r.size(); i++) messages.add(unpack(threadId, seq++, (String) r.get(i)));
            return new StoredMessagePage(messages, total);
        });
    }

    /**
     * Runs {@code body} at the thread's place: the cached one first, then the one the lookup key names.
     * {@code body} returns null when the thread is not there (another incarnation, or none).
     */
    private <T> @Nullable T onThread(String threadId, Function<Place, @Nullable T> body) {
        Place cached = places.get(threadId);
        if (cached != null) {
            T r = body.apply(cached);
            if (r != null) return r;
            places.remove(threadId, cached);
        }
        Place p = Place.of(redis.get(keys.threadLookup(threadId)));
        if (p == null || !p.confirmed()) return null;
        T r = body.apply(p);
        if (r != null) {
            if (places.size() >= CACHE_LIMIT) places.clear();
            places.put(threadId, p);
        }
        return r;
    }

    /** The thread's keys: its hash, its messages, its run-message ids, its owner's listing (as the scripts take them). */
    private String[] threadKeys(String owner, String threadId) {
        String base = keys.memoryBase(owner);
        String hex = RedisKeys.hex(threadId);
        return new String[] {base + "th:" + hex, base + "msg:" + hex, base + "ids:" + hex, base + "threads"};
    }

    /** A thread from id, resourceId, title, metadata, createdAt, updatedAt. */
    private MemoryThread thread(String threadId, List<String> f) {
        try {
            return MemoryThread.builder().id(f.get(0)).resourceId(f.get(1)).title(f.get(2))
                    .metadataJson(Objects.requireNonNull(f.get(3), "no metadata"))
                    .createdAt(Instant.ofEpochMilli(Long.parseLong(f.get(4))))
                    .updatedAt(Instant.ofEpochMilli(Long.parseLong(f.get(5))))
                    .build();
        } catch (RuntimeException e) {
            throw new StorageException(description + ": the stored hash of thread '" + threadId + "' is not a valid thread ("
                    + e.getMessage() + "); was it written by something else than Baton?", e);
        }
    }

    /**
     * A message as the thread's message hash keeps it: {@code createdAt:runIndex:len(role):role len(runId):runId content},
     * the role as its wire name, lengths in UTF-16 units, so that nothing in a run id or content can be mistaken for a
     * separator.
     */
    static String pack(StoredMessage.New m, String createdAtMillis) {
        String role = m.role().wireName();
        return createdAtMillis + ':' + m.runIndex() + ':' + role.length() + ':' + role + m.runId().length() + ':'
                + m.runId() + m.content();
    }

    StoredMessage unpack(String threadId, long seq, String packed) {
        try {
            int a = packed.indexOf(':');
            int b = packed.indexOf(':', a + 1);
            int c = packed.indexOf(':', b + 1);
            int roleEnd = c + 1 + Integer.parseInt(packed.substring(b + 1, c));
            int d = packed.indexOf(':', roleEnd);
            int runIdEnd = d + 1 + Integer.parseInt(packed.substring(roleEnd, d));
            return StoredMessage.builder().threadId(threadId).seq(seq)
                    .runId(packed.substring(d + 1, runIdEnd)).runIndex(Integer.parseInt(packed.substring(a + 1, b)))
                    .role(Role.fromWireName(packed.substring(c + 1, roleEnd))).content(packed.substring(runIdEnd))
                    .createdAt(Instant.ofEpochMilli(Long.parseLong(packed.substring(0, a))))
                    .build();
        } catch (RuntimeException e) {
            throw new StorageException(description + ": message " + seq + " of thread '" + threadId
                    + "' is not a valid message (" + e.getMessage() + "); was it written by something else than Baton?", e);
        }
    }

    private static void put(List<String> out, String field, @Nullable String value) {
        if (value == null) return;   // absent field = null
        out.add(field);
        out.add(value);
    }

    private static String millis(Instant t) {
        return Long.toString(t.toEpochMilli());
    }

    private static String nonce() {
        byte[] b = new byte[NONCE_LENGTH / 2];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static void checkPage(long offset, int limit) {
        if (offset < 0) throw new IllegalArgumentException("offset must be >= 0, was " + offset);
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
    }
}
