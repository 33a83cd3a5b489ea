package dev.baton.bench;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.MemoryStore;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What one suspend-then-approve cycle writes, captured from a real cycle through Baton on the
 * backend's own store: the inserted suspension, the claim (with its decision record), the tool's
 * result and the delete. The raw baselines ({@link RawCycle}) replay exactly these rows, under new
 * run ids, so they write the same columns, fields, payload sizes and index entries as Baton.
 *
 * @param inserted     the snapshot {@code insert} stored
 * @param claimed      the snapshot of the claim's compare-and-set
 * @param claimVersion the version the claim expected
 * @param decisions    the decision records written with the claim
 * @param result       the snapshot that stored the tool's result
 * @param resultVersion the version the result's compare-and-set expected
 * @param deleteVersion the version the delete expected
 * @param calls        the store calls of the cycle, in order
 */
record CycleTemplate(RunSnapshot inserted, RunSnapshot claimed, long claimVersion, List<DecisionRecord> decisions,
                     RunSnapshot result, long resultVersion, long deleteVersion, List<String> calls) {

    /** The agent id of the raw baselines' runs: neither a seeded agent nor the writer. */
    static final String RAW_AGENT = "bench-raw";

    /** Runs one cycle through Baton by an agent of id {@link #RAW_AGENT} on {@code store}, its prompt padded to {@code size}, and records its writes. */
    static CycleTemplate capture(SnapshotStore store, int size) {
        Recording rec = new Recording(store);
        Agent agent = DataSet.agent(RAW_AGENT, rec);
        AgentResult s = agent.generate(DataSet.paddedPrompt(size, new java.util.SplittableRandom(7)),
                dev.baton.agent.RunOptions.builder().threadId("raw-thread").resourceId("raw-user").build());
        if (s.outcome() != RunOutcome.SUSPENDED) throw new IllegalStateException("template run did not suspend");
        AgentResult r = agent.approveToolCall(s.runId(), s.waitingCalls().get(0).toolCallId()).result();
        if (r.outcome() != RunOutcome.COMPLETED) throw new IllegalStateException("template run ended " + r.outcome());
        if (rec.inserted == null || rec.claimed == null || rec.result == null || rec.deleteVersion < 0) {
            throw new IllegalStateException("the cycle did not make the expected store calls: " + rec.calls);
        }
        return new CycleTemplate(rec.inserted, rec.claimed, rec.claimVersion, rec.decisions, rec.result, rec.resultVersion,
                rec.deleteVersion, List.copyOf(rec.calls));
    }

    /**
     * {@code s} under run id {@code runId} (the id is also replaced inside the payload and summary), its times
     * moved by {@code shiftMillis} (the raw cycles pass "now minus the template's creation", so that their rows
     * land where Baton's do in the time-ordered indexes).
     */
    RunSnapshot as(RunSnapshot s, String runId, long shiftMillis) {
        String old = inserted.runId();
        return s.toBuilder().runId(runId).payload(s.payload().replace(old, runId)).summary(s.summary().replace(old, runId))
                .createdAt(s.createdAt().plusMillis(shiftMillis)).suspendedAt(s.suspendedAt().plusMillis(shiftMillis))
                .lease(s.leaseOwner(), shift(s.leaseExpiresAt(), shiftMillis)).expiresAt(shift(s.expiresAt(), shiftMillis))
                .notification(shift(s.notifyAt(), shiftMillis), s.notifyState())
                .build();
    }

    /** How far to move the template's times so that a run replayed now is created now. */
    long shiftToNow() {
        return System.currentTimeMillis() - inserted.createdAt().toEpochMilli();
    }

    private static Instant shift(Instant at, long millis) {
        return at == null ? null : at.plusMillis(millis);
    }

    /** The decision records under run id {@code runId}, with fresh decision ids, their times moved by {@code shiftMillis}. */
    List<DecisionRecord> decisionsAs(String runId, long shiftMillis) {
        List<DecisionRecord> out = new ArrayList<>(decisions.size());
        int k = 0;
        for (DecisionRecord d : decisions) {
            DecisionRecord.Builder b = d.toBuilder().runId(runId).decisionId(runId + "-d" + (k++))
                    .decidedAt(d.decidedAt().plusMillis(shiftMillis));
            if (d.idempotencyKey() != null) b.idempotencyKey(runId + "-k" + k);
            out.add(b.build());
        }
        return out;
    }

    /** Delegates to a store, recording the writes of one cycle. */
    private static final class Recording implements SnapshotStore {
        final SnapshotStore store;
        final List<String> calls = new ArrayList<>();
        RunSnapshot inserted;
        RunSnapshot claimed;
        long claimVersion;
        List<DecisionRecord> decisions = List.of();
        RunSnapshot result;
        long resultVersion;
        long deleteVersion = -1;

        Recording(SnapshotStore store) {
            this.store = store;
        }

        @Override public boolean insert(RunSnapshot s) { calls.add("insert"); inserted = s; return store.insert(s); }
        @Override public Optional<RunSnapshot> find(String id) { calls.add("find"); return store.find(id); }
        @Override public boolean compareAndSet(long v, RunSnapshot s) {
            calls.add("compare-and-set");
            if (claimed == null) {
                claimed = s;
                claimVersion = v;
            } else {
                result = s;
                resultVersion = v;
            }
            return store.compareAndSet(v, s);
        }
        @Override public boolean compareAndSet(long v, RunSnapshot s, List<DecisionRecord> records) {
            calls.add("compare-and-set with " + records.size() + " decision(s)");
            if (claimed == null) {
                claimed = s;
                claimVersion = v;
                decisions = List.copyOf(records);
            } else {
                result = s;
                resultVersion = v;
            }
            return store.compareAndSet(v, s, records);
        }
        @Override public boolean delete(String id, long v) { calls.add("delete"); deleteVersion = v; return store.delete(id, v); }
        @Override public boolean delete(String id, long v, List<DecisionRecord> records) {
            calls.add("delete with decisions");
            deleteVersion = v;
            return store.delete(id, v, records);
        }
        @Override public RunPage list(RunQuery q) { return store.list(q); }
        @Override public List<RunSnapshot> listDue(String a, Instant now, int limit) { return store.listDue(a, now, limit); }
        @Override public boolean renewLease(String id, long v, String o, Instant e) { calls.add("renew-lease"); return store.renewLease(id, v, o, e); }
        @Override public Optional<MemoryStore> memory() { return store.memory(); }
        @Override public Instant now() { calls.add("now"); return store.now(); }
        @Override public DecisionPage listDecisions(DecisionQuery q) { return store.listDecisions(q); }
        @Override public Optional<DecisionRecord> findDecision(String a, String k) { return store.findDecision(a, k); }
        @Override public Set<StoreCapability> capabilities() { return store.capabilities(); }
        @Override public Set<QueryFeature> queryFeatures() { return store.queryFeatures(); }
        @Override public String describe() { return store.describe(); }
        @Override public void close() { }
    }
}
