package dev.baton.store.memory;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.memory.MemoryRuns.Position;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The reads of many runs: {@link MemorySnapshotStore#list} and {@link MemorySnapshotStore#listDue},
 * under the read lock of the store's {@link MemoryRuns}. A listing reads one index: the date bounds
 * and the cursor are ranks in its counted tree, the total of a range is a difference of ranks, and
 * only the runs stored as {@code RESUMING} under it are checked against the query's {@code now}; a
 * due listing walks the agent's deadline index. A deciders filter reads the agent's label indexes instead.
 */
final class MemoryRunListing {
    private final MemoryRuns runs;

    MemoryRunListing(MemoryRuns runs) {
        this.runs = runs;
    }

    RunPage list(RunQuery query) {
        runs.lock.readLock().lock();
        try {
            if (query.deciders() != null) return listDeciders(query);
            MemoryRuns.Index index = runs.index(query.agentId(), query.threadId(), query.resourceId());
            if (index == null || query.emptyDateRange()) return new RunPage(List.of(), 0);
            // the index is in listing order (newest first), so the date bounds select a contiguous rank range,
            // from the edge before every run created at createdTo to the edge after every run created at createdFrom
            Position low = query.createdTo() == null ? null : Position.before(query.createdTo());
            Position high = query.createdFrom() == null ? null : Position.after(query.createdFrom());
            int from = low == null ? 0 : index.all.rankBefore(low);
            int to = high == null ? index.all.size() : index.all.rankBefore(high);
            RunQuery.After after = query.after();
            int start = after == null ? from : Math.max(from, index.all.rankThrough(Position.of(after)));
            Instant now = query.now();
            // the runs under a live lease in the range: the only ones whose effective status is RESUMING
            NavigableMap<Position, RunSnapshot> resumingRange = index.resuming;
            if (low != null) resumingRange = resumingRange.tailMap(low, false);
            if (high != null) resumingRange = resumingRange.headMap(high, false);
            List<RunSnapshot> live = new ArrayList<>();
            for (RunSnapshot s : resumingRange.values()) {
                if (s.effectiveStatus(now) == RunStatus.RESUMING) live.add(s);
            }
            Integer limit = query.limit();
            int max = limit == null ? Integer.MAX_VALUE : limit;
            List<RunSnapshot> items = new ArrayList<>(Math.min(max, 64));
            long total;
            if (query.status() == RunStatus.RESUMING) {
                total = live.size();
                long skip = query.offset();
                for (RunSnapshot s : live) {
                    if (items.size() >= max) break;
                    if (after != null && !after.precedes(s)) continue;
                    if (skip > 0) {
                        skip--;
                        continue;
                    }
                    items.add(s);
                }
            } else {
                boolean suspendedOnly = query.status() == RunStatus.SUSPENDED;
                total = (long) (to - from) - (suspendedOnly ? live.size() : 0);
                // the rank of the first match: skip `offset` matches, stepping over each live run on the way
                long first = (long) start + query.offset();
                if (suspendedOnly) {
                    for (RunSnapshot s : live) {
                        int rank = index.all.rankBefore(Position.of(s));
                        if (rank < start) continue;
                        if (rank <= first) first++;
                        else break;
                    }
                }
                if (max > 0 && first < to) {
                    Iterator<RunSnapshot> it = index.all.valuesFrom((int) first);
                    for (long rank = first; rank < to && items.size() < max && it.hasNext(); rank++) {
                        RunSnapshot s = it.next();
                        if (suspendedOnly && s.effectiveStatus(now) != RunStatus.SUSPENDED) continue;
                        items.add(s);
                    }
                }
            }
            if (!query.withPayload()) items.replaceAll(MemoryRunListing::withoutPayload);
            return new RunPage(items, total);
        } finally {
            runs.lock.readLock().unlock();
        }
    }

    /**
     * A listing with a deciders filter: the runs under the granted labels' indexes (each in listing order,
     * cut to the date range), merged, checked against the whole query ({@link RunQuery#matches}, the
     * reference rule), then counted and paged.
     */
    private RunPage listDeciders(RunQuery query) {
        if (query.emptyDateRange()) return new RunPage(List.of(), 0);
        Position low = query.createdTo() == null ? null : Position.before(query.createdTo());
        Position high = query.createdFrom() == null ? null : Position.after(query.createdFrom());
        NavigableMap<Position, RunSnapshot> matches = new TreeMap<>();
        for (RunQuery.Decider d : query.deciders()) {
            NavigableMap<Position, RunSnapshot> range = runs.labelled(query.agentId(), d.granted());
            if (range == null) continue;
            if (low != null) range = range.tailMap(low, false);
            if (high != null) range = range.headMap(high, false);
            for (Map.Entry<Position, RunSnapshot> e : range.entrySet()) {
                if (!matches.containsKey(e.getKey()) && query.matches(e.getValue())) matches.put(e.getKey(), e.getValue());
            }
        }
        long total = matches.size();
        NavigableMap<Position, RunSnapshot> from = query.after() == null ? matches : matches.tailMap(Position.of(query.after()), false);
        Integer limit = query.limit();
        int max = limit == null ? Integer.MAX_VALUE : limit;
        List<RunSnapshot> items = new ArrayList<>(Math.min(max, 64));
        long skip = query.offset();
        for (RunSnapshot s : from.values()) {
            if (items.size() >= max) break;
            if (skip > 0) {
                skip--;
                continue;
            }
            items.add(query.withPayload() ? s : withoutPayload(s));
        }
        return new RunPage(items, total);
    }

    List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        runs.lock.readLock().lock();
        try {
            NavigableMap<MemoryRuns.Due, RunSnapshot> due = runs.due.get(agentId);
            List<RunSnapshot> out = new ArrayList<>();
            if (due == null) return out;
            for (RunSnapshot s : due.values()) {
                if (out.size() >= limit || s.expiresAt().isAfter(now)) break;
                if (s.effectiveStatus(now) == RunStatus.SUSPENDED) out.add(s);
            }
            return out;
        } finally {
            runs.lock.readLock().unlock();
        }
    }

    List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        runs.lock.readLock().lock();
        try {
            NavigableMap<MemoryRuns.Due, RunSnapshot> due = runs.notifications.get(agentId);
            List<RunSnapshot> out = new ArrayList<>();
            if (due == null) return out;
            for (RunSnapshot s : due.values()) {
                if (out.size() >= limit || s.notifyAt().isAfter(now)) break;
                out.add(s);
            }
            return out;
        } finally {
            runs.lock.readLock().unlock();
        }
    }

    /** A listed run without its payload, as a listing that asked for none returns it (the summary is always there). */
    private static RunSnapshot withoutPayload(RunSnapshot s) {
        if (s.payload().isEmpty()) return s;
        return s.toBuilder().payload("").build();
    }
}
