package dev.baton.store.redis;

import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded data for the bucketed-layout tests: runs of one agent over a dozen threads (and none), five resources,
 * few distinct creation times (many ties, broken by runId bytes: ids with characters of every UTF-8 length),
 * leases live and lapsed, deadlines and notifications; decision records with tied decidedAt and idempotency keys.
 */
final class BucketData {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Instant NOW = T0.plusSeconds(1000);
    private static final List<String> ODD = List.of("a", "Z", "~", "\u00e9", "\uffff", "\ud83d\ude00", "0", "\u4e16");

    private final Random random;
    final String agent;
    final List<RunSnapshot> runs = new ArrayList<>();

    BucketData(long seed, String agent, int count) {
        this.random = new Random(seed);
        this.agent = agent;
        for (int i = 0; i < count; i++) runs.add(run(i));
    }

    String thread() {
        return random.nextInt(8) == 0 ? null : "t" + random.nextInt(12) + ODD.get(random.nextInt(ODD.size()));
    }

    String resource() {
        return random.nextInt(5) == 0 ? null : "r" + random.nextInt(5);
    }

    private RunSnapshot run(int i) {
        Instant created = T0.plusMillis(random.nextInt(40) * 7L);
        String id = ODD.get(random.nextInt(ODD.size())) + "run-" + Integer.toString(random.nextInt(100_000), 36) + "-" + i;
        RunSnapshot.Builder b = RunSnapshot.builder().runId(id).agentId(agent).threadId(thread()).resourceId(resource())
                .createdAt(created).suspendedAt(created.plusMillis(5)).version(1).payload("{\"i\":" + i + "}").summary("s" + i);
        if (random.nextInt(4) == 0) {
            b.status(RunStatus.RESUMING).lease("w" + random.nextInt(3), NOW.plusSeconds(random.nextInt(3) - 1));
        } else {
            b.status(RunStatus.SUSPENDED);
        }
        if (random.nextInt(3) == 0) b.expiresAt(NOW.plusSeconds(random.nextInt(20) - 10));
        if (random.nextInt(3) == 0) b.notification(NOW.plusSeconds(random.nextInt(20) - 10), random.nextBoolean() ? "n" : null);
        return b.build();
    }

    /** A random listing query of the agent: filters, date bounds, offset and limit or a cursor from {@code cursors}. */
    RunQuery query(List<RunSnapshot> cursors) {
        RunQuery.Builder q = RunQuery.forAgent(agent, NOW);
        int f = random.nextInt(6);
        if (f == 0) q.status(RunStatus.SUSPENDED);
        if (f == 1) q.status(RunStatus.RESUMING);
        if (f >= 2) q.status(null);
        if (random.nextInt(4) == 0) q.threadId(runs.get(random.nextInt(runs.size())).threadId());
        if (random.nextInt(3) == 0) q.resourceId(resource());
        if (random.nextInt(4) == 0) q.createdFrom(T0.plusMillis(random.nextInt(140)));
        if (random.nextInt(4) == 0) q.createdTo(T0.plusMillis(100 + random.nextInt(180)));
        int p = random.nextInt(5);
        if (p == 0) q.page(random.nextInt(40), random.nextInt(25));
        if (p == 1) q.countOnly();
        if (p == 2 && !cursors.isEmpty()) {
            RunSnapshot c = cursors.get(random.nextInt(cursors.size()));
            q.after(new RunQuery.After(c.createdAt(), c.runId()), 1 + random.nextInt(20));
        }
        if (p == 3) q.page(random.nextInt(300), 1 + random.nextInt(30));
        q.withPayload(random.nextBoolean());
        return q.build();
    }

    /** Claims the run (version 1 to 2) with one to three decision records, tied decidedAt, some with idempotency keys. */
    boolean decide(SnapshotStore store, RunSnapshot s, int n, String keyPrefix) {
        RunSnapshot next = s.toBuilder().version(2).status(RunStatus.SUSPENDED).lease(null, null)
                .suspendedAt(s.suspendedAt().plusMillis(1)).build();
        List<DecisionRecord> ds = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int j = 0; j < count; j++) {
            ds.add(DecisionRecord.builder().decisionId(ODD.get(random.nextInt(ODD.size())) + "d" + n + "-" + j)
                    .agentId(agent).runId(s.runId()).threadId(s.threadId()).resourceId(s.resourceId())
                    .kind(DecisionKind.values()[random.nextInt(4)]).actor("u" + random.nextInt(3)).instanceId("i")
                    .decidedAt(T0.plusMillis(random.nextInt(30) * 3L))
                    .idempotencyKey(random.nextInt(3) == 0 ? keyPrefix + n + "-" + j : null).build());
        }
        return store.compareAndSet(1, next, ds);
    }

    Random random() {
        return random;
    }
}
