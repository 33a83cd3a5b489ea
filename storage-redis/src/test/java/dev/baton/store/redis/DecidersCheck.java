package dev.baton.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.QueryFeature;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The deciders filter of {@link RunQuery#deciders()} (DECIDERS-SPI.md's match rule) on one store: by role,
 * exclusion, several deciders, stored status SUSPENDED only, labels rewritten or dropped by later writes and
 * gone with the run, totals and paging, with the other filters. A store's own check until the TCK's listing
 * contract covers the filter.
 */
final class DecidersCheck {
    static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    private final SnapshotStore store;
    private final String agent = "agent-" + UUID.randomUUID();

    DecidersCheck(SnapshotStore store) {
        this.store = store;
    }

    static RunQuery.Decider d(String granted, String excluded) {
        return new RunQuery.Decider(granted, excluded);
    }

    /** What a principal {@code name} with {@code roles} asks with, as DECIDERS-SPI.md says. */
    static List<RunQuery.Decider> principal(String name, String... roles) {
        List<RunQuery.Decider> out = new ArrayList<>();
        out.add(d("*", "x:*:" + name));
        for (String r : roles) out.add(d("r:" + r, "x:" + r + ":" + name));
        return out;
    }

    RunSnapshot run(String id, long createdOffset, String thread, String... labels) {
        Instant at = T0.plusMillis(createdOffset);
        RunSnapshot s = RunSnapshot.builder().runId(agent + "-" + id).agentId(agent).status(RunStatus.SUSPENDED)
                .threadId(thread).createdAt(at).suspendedAt(at).version(1).payload("{\"p\":1}").summary("{}")
                .deciders(List.of(labels)).build();
        assertThat(store.insert(s)).isTrue();
        return s;
    }

    RunQuery.Builder query(List<RunQuery.Decider> deciders) {
        return RunQuery.forAgent(agent, T0.plusSeconds(3600)).status(null).deciders(deciders);
    }

    List<String> ids(RunPage page) {
        return page.items().stream().map(s -> s.runId().substring(agent.length() + 1)).toList();
    }

    void all() {
        assertThat(store.queryFeatures()).contains(QueryFeature.DECIDERS);
        byRoleAndExclusion();
        severalDecidersAndRoundTrip();
        onlyStoredSuspended();
        laterWritesReplaceLabels();
        totalsAndPaging();
    }

    void byRoleAndExclusion() {
        run("a", 1, "t1", "r:admin");
        run("b", 2, "t1", "r:ops");
        run("c", 3, "t2", "*");
        run("d", 4, "t2");
        run("e", 5, "t2", "r:admin", "x:admin:bob");
        run("f", 6, "t1", "r:admin", "x:*:bob");   // excluded from "*" only, admin still grants
        assertThat(ids(store.list(query(List.of(d("r:admin", "x:admin:bob"))).build()))).containsExactly("f", "a");
        assertThat(ids(store.list(query(List.of(d("r:admin", "x:admin:alice"))).build()))).containsExactly("f", "e", "a");
        assertThat(ids(store.list(query(List.of(d("r:none", "x:none:bob"))).build()))).isEmpty();
        assertThat(store.list(query(List.of()).build()).total()).isZero();   // an empty list matches nothing
        assertThat(store.list(query(List.of()).build()).items()).isEmpty();
        // with the other filters
        assertThat(ids(store.list(query(List.of(d("r:admin", "x:admin:alice"))).threadId("t1").build()))).containsExactly("f", "a");
        assertThat(ids(store.list(query(List.of(d("r:admin", "x:admin:alice"))).createdTo(T0.plusMillis(5)).build())))
                .containsExactly("e", "a");
        assertThat(ids(store.list(query(List.of(d("r:admin", "x:admin:alice"))).status(RunStatus.SUSPENDED).build())))
                .containsExactly("f", "e", "a");
        assertThat(ids(store.list(query(List.of(d("r:admin", "x:admin:alice"))).status(RunStatus.RESUMING).build()))).isEmpty();
    }

    void severalDecidersAndRoundTrip() {
        // bob with roles admin and ops: "*" unless x:*:bob, admin unless x:admin:bob, ops unless x:ops:bob
        RunPage page = store.list(query(principal("bob", "admin", "ops")).build());
        assertThat(ids(page)).containsExactly("f", "c", "b", "a");
        assertThat(page.total()).isEqualTo(4);
        RunSnapshot f = page.items().get(0);
        assertThat(f.deciders()).containsExactly("r:admin", "x:*:bob");
        assertThat(store.find(f.runId()).orElseThrow().deciders()).containsExactly("r:admin", "x:*:bob");
        assertThat(store.find(agent + "-d").orElseThrow().deciders()).isEmpty();
        RunPage withPayload = store.list(query(principal("bob", "admin", "ops")).withPayload(true).build());
        assertThat(withPayload.items().get(0).deciders()).isEqualTo(Set.of("r:admin", "x:*:bob"));
        // carol, no roles: only "*"
        assertThat(ids(store.list(query(principal("carol")).build()))).containsExactly("c");
    }

    void onlyStoredSuspended() {
        RunSnapshot g = run("g", 10, "t3", "r:qa");
        RunSnapshot h = run("h", 11, "t3", "r:qa");
        List<RunQuery.Decider> qa = List.of(d("r:qa", "x:qa:bob"));
        assertThat(ids(store.list(query(qa).build()))).containsExactly("h", "g");
        // claimed: labels kept, but a claimed run waits for no decision, live lease or lapsed
        RunSnapshot gClaimed = g.claimed("w1", T0.plusSeconds(7200), "{\"p\":2}");
        assertThat(store.compareAndSet(1, gClaimed)).isTrue();
        RunSnapshot hClaimed = h.claimed("w1", T0.plusSeconds(60), "{\"p\":2}");   // lapsed at the query's now
        assertThat(store.compareAndSet(1, hClaimed)).isTrue();
        assertThat(store.find(gClaimed.runId()).orElseThrow().deciders()).containsExactly("r:qa");
        assertThat(ids(store.list(query(qa).build()))).isEmpty();
        assertThat(ids(store.list(query(qa).status(RunStatus.SUSPENDED).build()))).isEmpty();
        assertThat(ids(store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).status(RunStatus.SUSPENDED).threadId("t3").build())))
                .containsExactly("h");   // without the filter, the lapsed claim is listed as suspended
        // suspended again, labels kept: matches again
        RunSnapshot gAgain = gClaimed.suspended(T0.plusSeconds(5), "{\"p\":3}");
        assertThat(store.compareAndSet(2, gAgain)).isTrue();
        assertThat(ids(store.list(query(qa).build()))).containsExactly("g");
    }

    void laterWritesReplaceLabels() {
        RunSnapshot i = run("i", 20, "t4", "r:sec", "r:hr");
        List<RunQuery.Decider> sec = List.of(d("r:sec", "x:sec:bob"));
        List<RunQuery.Decider> hr = List.of(d("r:hr", "x:hr:bob"));
        List<RunQuery.Decider> fin = List.of(d("r:fin", "x:fin:bob"));
        assertThat(ids(store.list(query(sec).build()))).containsExactly("i");
        // a partial approval: suspended again with other labels (r:sec dropped, bob now excluded from hr)
        RunSnapshot i2 = i.suspended(T0.plusSeconds(2), "{\"p\":2}", null, "{}", List.of("r:hr", "x:hr:bob", "r:fin"));
        assertThat(store.compareAndSet(1, i2)).isTrue();
        assertThat(ids(store.list(query(sec).build()))).isEmpty();
        assertThat(ids(store.list(query(hr).build()))).isEmpty();
        assertThat(ids(store.list(query(fin).build()))).containsExactly("i");
        assertThat(ids(store.list(query(List.of(d("r:hr", "x:hr:alice"))).build()))).containsExactly("i");
        // claimed, then suspended without labels: matches nothing
        RunSnapshot i3 = i2.claimed("w", T0.plusSeconds(7200), "{\"p\":3}");
        assertThat(store.compareAndSet(2, i3)).isTrue();
        RunSnapshot i4 = i3.suspended(T0.plusSeconds(3), "{\"p\":4}", null, "{}", null);
        assertThat(store.compareAndSet(3, i4)).isTrue();
        assertThat(store.find(i4.runId()).orElseThrow().deciders()).isEmpty();
        assertThat(ids(store.list(query(fin).build()))).isEmpty();
        assertThat(ids(store.list(query(List.of(d("r:hr", "x:hr:alice"))).build()))).isEmpty();
        // suspended again with labels, then deleted: gone; a new run under the same id without labels matches nothing
        RunSnapshot i5 = i4.suspended(T0.plusSeconds(4), "{\"p\":5}", null, "{}", List.of("r:fin"));
        assertThat(store.compareAndSet(4, i5)).isTrue();
        assertThat(ids(store.list(query(fin).build()))).containsExactly("i");
        assertThat(store.delete(i5.runId(), 5)).isTrue();
        assertThat(ids(store.list(query(fin).build()))).isEmpty();
        RunSnapshot again = RunSnapshot.builder().runId(i.runId()).agentId(agent).status(RunStatus.SUSPENDED).threadId("t4")
                .createdAt(i.createdAt()).suspendedAt(i.createdAt()).version(5).payload("{}").summary("{}").build();
        assertThat(store.insert(again)).isTrue();
        assertThat(ids(store.list(query(fin).build()))).isEmpty();
        assertThat(store.delete(i.runId(), 5)).isTrue();
    }

    void totalsAndPaging() {
        String other = "agent-" + UUID.randomUUID();
        for (int k = 0; k < 7; k++) {
            Instant at = T0.plusMillis(100 + k / 2);   // pairs share a millisecond: ties by run id
            store.insert(RunSnapshot.builder().runId(agent + "-p" + k).agentId(agent).status(RunStatus.SUSPENDED)
                    .createdAt(at).suspendedAt(at).version(1).payload("{}").summary("{}")
                    .deciders(k == 3 ? List.of("r:dev", "x:dev:bob") : List.of("r:dev")).build());
            // another agent's runs with the same labels never count
            store.insert(RunSnapshot.builder().runId(other + "-p" + k).agentId(other).status(RunStatus.SUSPENDED)
                    .createdAt(at).suspendedAt(at).version(1).payload("{}").summary("{}").deciders(List.of("r:dev")).build());
        }
        List<RunQuery.Decider> dev = List.of(d("r:dev", "x:dev:bob"));
        List<String> expected = List.of("p6", "p5", "p4", "p2", "p1", "p0");
        RunPage everything = store.list(query(dev).build());
        assertThat(ids(everything)).isEqualTo(expected);
        assertThat(everything.total()).isEqualTo(6);
        RunPage first = store.list(query(dev).page(0, 4).build());
        assertThat(ids(first)).isEqualTo(expected.subList(0, 4));
        assertThat(first.total()).isEqualTo(6);
        RunPage second = store.list(query(dev).page(4, 4).build());
        assertThat(ids(second)).isEqualTo(expected.subList(4, 6));
        assertThat(second.total()).isEqualTo(6);
        RunPage past = store.list(query(dev).page(8, 4).build());
        assertThat(past.items()).isEmpty();
        assertThat(past.total()).isEqualTo(6);
        assertThat(store.list(query(dev).countOnly().build()).total()).isEqualTo(6);
        RunSnapshot last = first.items().get(3);
        RunPage afterCursor = store.list(query(dev).after(new RunQuery.After(last.createdAt(), last.runId()), 4).build());
        assertThat(ids(afterCursor)).isEqualTo(expected.subList(4, 6));
        assertThat(afterCursor.total()).isEqualTo(6);
        RunSnapshot p4 = first.items().get(2);
        RunPage tie = store.list(query(dev).after(new RunQuery.After(p4.createdAt(), p4.runId()), 2).build());
        assertThat(ids(tie)).containsExactly("p2", "p1");
    }
}
