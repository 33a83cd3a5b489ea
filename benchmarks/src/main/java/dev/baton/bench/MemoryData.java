package dev.baton.bench;

import dev.baton.internal.MessageCodec;
import dev.baton.model.Message;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The seeded thread memory, a pure function of the thread index, the same on every backend:
 * {@code messages} messages in threads of {@value #PER_THREAD} (alternating user and assistant,
 * about {@value #TEXT} characters of text each, encoded exactly as core encodes them), the threads
 * spread over resources of {@value #THREADS_PER_RESOURCE} threads each. At 1,000,000 messages that
 * is 10,000 threads and 100 resources.
 *
 * <p>Seeding goes through the store's own {@link MemoryStore} SPI ({@code createThread}, then one
 * {@code append} of the thread's messages), so the rows, keys or documents are exactly the
 * store's. It is resumable: an existing thread is not created again and an append skips messages
 * the thread already has. A marker thread written last says the data set is complete.
 */
public final class MemoryData {
    public static final int PER_THREAD = 100;
    public static final int THREADS_PER_RESOURCE = 100;
    public static final int TEXT = 200;
    /** Bump when the generated data change. */
    public static final int VERSION = 2;   // 2: threads under their keys (thread ids scoped by resource)
    static final String MARKER = "mbench-seeded-v" + VERSION;

    public final int messages;
    public final int threads;
    public final int resources;

    public MemoryData(int messages) {
        if (messages < PER_THREAD || messages % PER_THREAD != 0) {
            throw new IllegalArgumentException("messages must be a multiple of " + PER_THREAD + ", was " + messages);
        }
        this.messages = messages;
        this.threads = messages / PER_THREAD;
        this.resources = Math.max(1, threads / THREADS_PER_RESOURCE);
    }

    /** The namespace suffix: {@code mem_1m}. */
    public String tag() {
        return "mem_" + DataSet.human(messages);
    }

    public static String threadId(int t) {
        return String.format(Locale.ROOT, "mthread-%06d", t);
    }

    /** The key the store keeps thread {@code t} under, as core gives it: {@code ThreadKeys.key(resource, threadId)}. */
    public String keyOf(int t) {
        return dev.baton.internal.ThreadKeys.key(resourceOf(t), threadId(t));
    }

    public String resourceOf(int t) {
        return String.format(Locale.ROOT, "muser-%04d", t % resources);
    }

    public static String resourceId(int r) {
        return String.format(Locale.ROOT, "muser-%04d", r);
    }

    /** The thread's update time after seeding: distinct per thread, so listing order is fixed. */
    static Instant updatedAt(int t) {
        return DataSet.START.plusSeconds(t);
    }

    /** The messages of thread {@code t}, as one run of {@value #PER_THREAD} messages. */
    static List<StoredMessage.New> messagesOf(int t) {
        SplittableRandom r = new SplittableRandom(0x5eedL * 31 + t);
        List<StoredMessage.New> out = new ArrayList<>(PER_THREAD);
        String runId = "mrun-" + t;
        for (int k = 0; k < PER_THREAD; k++) {
            String text = DataSet.filler(TEXT, r);
            Message m = k % 2 == 0 ? new Message.User(text) : new Message.Assistant(text, List.of());
            out.add(StoredMessage.New.builder().runId(runId).runIndex(k).role(m.role()).content(MessageCodec.encodeText(m)).build());
        }
        return out;
    }

    boolean isSeeded(MemoryStore store) {
        return store.findThread(MARKER).isPresent();
    }

    /** Seeds every thread not yet complete, with {@code parallelism} writers, then the marker. */
    void seed(MemoryStore store, String backend, int parallelism) throws Exception {
        long start = System.nanoTime();
        AtomicLong done = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(parallelism);
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int p = 0; p < parallelism; p++) {
                int part = p;
                parts.add(pool.submit(() -> {
                    for (int t = part; t < threads; t += parallelism) {
                        Instant at = updatedAt(t);
                        store.createThread(MemoryThread.builder().id(keyOf(t)).resourceId(resourceOf(t)).title("thread " + t)
                                .createdAt(at).updatedAt(at).build());
                        if (!store.append(keyOf(t), messagesOf(t), at)) {
                            throw new IllegalStateException(backend + ": thread " + threadId(t) + " vanished while seeding");
                        }
                        Backend.progress(backend + " memory", done.addAndGet(PER_THREAD), messages, start);
                    }
                    return null;
                }));
            }
            for (Future<?> f : parts) f.get();
        } finally {
            pool.shutdownNow();
        }
        Instant now = Instant.now();
        store.createThread(MemoryThread.builder().id(MARKER).title("seed marker").createdAt(now).updatedAt(now).build());
    }

    /**
     * Before measuring: the store's last messages and thread pages equal the raw query's on 64
     * targets, and have the seeded sizes.
     */
    String sanityCheck(MemoryStore store, @org.jspecify.annotations.Nullable RawMemory raw, String backend) {
        int compared = 0;
        for (int k = 0; k < MemoryFixture.TARGETS; k++) {
            int t = MemoryFixture.thread(k, threads);
            List<StoredMessage> last = store.lastMessages(keyOf(t), MemoryFixture.PAGE);
            if (last.size() != MemoryFixture.PAGE || last.get(last.size() - 1).seq() - last.get(0).seq() != MemoryFixture.PAGE - 1) {
                throw new IllegalStateException(backend + ": thread " + threadId(t) + " has not the seeded last messages: " + last.size());
            }
            String r = resourceId(MemoryFixture.resource(k, resources));
            var page = store.listThreads(r, 0, MemoryFixture.PAGE);
            if (page.total() != Math.min(threads, THREADS_PER_RESOURCE) && resources > 1) {
                throw new IllegalStateException(backend + ": resource " + r + " lists " + page.total() + " threads");
            }
            if (raw != null) {
                List<String> rawLast = raw.lastMessages(keyOf(t), resourceOf(t), MemoryFixture.PAGE);
                List<String> batonLast = last.stream().map(StoredMessage::content).toList();
                if (!rawLast.equals(batonLast)) {
                    throw new IllegalStateException(backend + ": store and raw query disagree on the last messages of " + threadId(t));
                }
                RawMemory.Threads rt = raw.threads(r, MemoryFixture.PAGE);
                List<String> ids = page.threads().stream().map(MemoryThread::id).toList();
                if (rt.total() != page.total() || !rt.ids().equals(ids)) {
                    throw new IllegalStateException(backend + ": store and raw query disagree on the threads of " + r
                            + ": store " + page.total() + " " + ids + ", raw " + rt.total() + " " + rt.ids());
                }
                compared++;
            }
        }
        return "sanity: " + (raw == null ? "no raw query (memory)" : compared + " last-message reads and thread pages identical"
                + " to the raw query") + "; " + String.format(Locale.ROOT, "%,d", threads) + " threads of " + PER_THREAD + " messages";
    }
}
