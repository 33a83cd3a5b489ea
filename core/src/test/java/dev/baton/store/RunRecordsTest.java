package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunRecordsTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00.123456789Z");

    private static RunSnapshot.Builder row(String runId) {
        return RunSnapshot.builder().runId(runId).agentId("a").status(RunStatus.SUSPENDED).createdAt(T).suspendedAt(T)
                .payload("{}").summary("{}");
    }

    private static RunSnapshot snapshot() {
        return row("r").build();
    }

    @Test
    void instantsAreKeptToTheMillisecondEveryBackendStores() {
        RunSnapshot s = snapshot();
        assertThat(s.createdAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
        assertThat(s.claimed("me", T, "{}").leaseExpiresAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
    }

    @Test
    void aResumingSnapshotNeedsALeaseAndASuspendedOneHasNone() {
        assertThatThrownBy(() -> row("r").status(RunStatus.RESUMING).version(2).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaseOwner");
        assertThatThrownBy(() -> row("r").version(2).lease("me", T).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> row("").build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> row("r").version(0).build()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLeaseIsHeldUntilItsExpiryInstantExclusive() {
        Instant expiry = Instant.parse("2026-01-01T00:01:00Z");
        RunSnapshot claimed = snapshot().claimed("me", expiry, "{}");
        assertThat(claimed.version()).isEqualTo(2);
        assertThat(claimed.effectiveStatus(expiry.minusMillis(1))).isEqualTo(RunStatus.RESUMING);
        assertThat(claimed.effectiveStatus(expiry)).isEqualTo(RunStatus.SUSPENDED);
    }

    @Test
    void dateBoundsAreRoundedInwardToWholeMilliseconds() {
        RunQuery q = RunQuery.forAgent("a", T).createdFrom(Instant.parse("2026-01-01T00:00:00.1231Z"))
                .createdTo(Instant.parse("2026-01-01T00:00:00.1239Z")).build();
        assertThat(q.createdFrom()).isEqualTo(Instant.parse("2026-01-01T00:00:00.124Z"));
        assertThat(q.createdTo()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
        assertThat(q.emptyDateRange()).isTrue();
        RunQuery exact = RunQuery.forAgent("a", T).createdFrom(Instant.parse("2026-01-01T00:00:00.123Z")).build();
        assertThat(exact.createdFrom()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
    }

    @Test
    void queriesAndPagesRejectImpossibleValues() {
        assertThatThrownBy(() -> RunQuery.forAgent("a", T).page(-1, 5).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offset");
        assertThatThrownBy(() -> new RunPage(List.of(snapshot()), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theListingOrderIsNewestFirstThenRunIdDescending() {
        RunSnapshot a = row("a").build();
        RunSnapshot b = row("b").build();
        RunSnapshot older = row("z").createdAt(T.minusSeconds(1)).build();
        assertThat(List.of(older, a, b).stream().sorted(RunQuery.ORDER).map(RunSnapshot::runId)).containsExactly("b", "a", "z");
    }

    @Test
    void aSnapshotNeedsItsSummaryAndNamesEveryMissingField() {
        assertThatThrownBy(() -> RunSnapshot.builder().runId("r").agentId("a").status(RunStatus.SUSPENDED).createdAt(T)
                .suspendedAt(T).payload("{}").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("summary");
        assertThatThrownBy(() -> row("r").payload(null).build()).hasMessageContaining("payload");
    }

    @Test
    void toBuilderCopiesEveryFieldSoAStoreChangesOnlyWhatItSets() {
        RunSnapshot s = row("r").threadId("t").resourceId("u").expiresAt(T.plusSeconds(5)).summary("{\"calls\":[]}").build();
        assertThat(s.toBuilder().build()).isEqualTo(s).hasSameHashCodeAs(s);
        RunSnapshot claimed = s.toBuilder().status(RunStatus.RESUMING).version(2).lease("me", T.plusSeconds(60)).build();
        assertThat(claimed.threadId()).isEqualTo("t");
        assertThat(claimed.summary()).isEqualTo(s.summary());
        assertThat(claimed.expiresAt()).isEqualTo(s.expiresAt());
        assertThat(claimed.toString()).contains("runId=r").doesNotContain("calls");
    }

    @Test
    void aQueryUsesOnlyTheBaselineFeaturesAndItsBuilderRoundTrips() {
        RunQuery q = RunQuery.forAgent("a", T).threadId("t").page(10, 5).withPayload(false).build();
        assertThat(q.features()).containsExactly(QueryFeature.BASELINE);
        assertThat(q.toBuilder().build()).isEqualTo(q);
    }

    @Test
    void deciderLabelsAreSortedImmutableKeptByClaimAndRenewalAndPartOfEquality() {
        RunSnapshot s = row("r").deciders(List.of("r:b", "*", "r:a")).build();
        assertThat(s.deciders()).containsExactly("*", "r:a", "r:b");
        assertThatThrownBy(() -> s.deciders().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(row("r").build().deciders()).isEmpty();
        assertThat(row("r").deciders(null).build().deciders()).isEmpty();
        assertThat(s).isNotEqualTo(row("r").build());
        assertThat(s.toBuilder().build()).isEqualTo(s).hasSameHashCodeAs(s);
        assertThat(s.toString()).contains("deciders=[*, r:a, r:b]");
        RunSnapshot claimed = s.claimed("me", T.plusSeconds(60), "{}");
        assertThat(claimed.deciders()).isEqualTo(s.deciders());
        assertThat(claimed.renewed(T.plusSeconds(90)).deciders()).isEqualTo(s.deciders());
        assertThat(claimed.suspended(T, "{}").deciders()).isEqualTo(s.deciders());
        assertThat(claimed.suspended(T, "{}", null, "{}", List.of("r:c")).deciders()).containsExactly("r:c");
        assertThat(claimed.suspended(T, "{}", null, "{}", null).deciders()).isEmpty();
    }

    @Test
    void aDeciderLabelIsOneTo128CharactersWithoutNul() {
        assertThat(row("r").deciders(List.of("x".repeat(128))).build().deciders()).hasSize(1);
        assertThatThrownBy(() -> row("r").deciders(List.of("x".repeat(129))).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("128");
        assertThatThrownBy(() -> row("r").deciders(List.of("")).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> row("r").deciders(List.of("a\0b")).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> row("r").deciders(java.util.Arrays.asList("a", null)).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDecidersFilterMatchesAStoredSuspendedRunWithAGrantAndWithoutItsExclusion() {
        RunSnapshot s = row("r").deciders(List.of("r:ops", "x:ops:alice")).build();
        RunQuery.Decider opsAlice = new RunQuery.Decider("r:ops", "x:ops:alice");
        RunQuery.Decider opsBob = new RunQuery.Decider("r:ops", "x:ops:bob");
        RunQuery.Decider any = new RunQuery.Decider("*", "x:*:bob");
        assertThat(RunQuery.matchesDeciders(List.of(opsAlice), s)).isFalse();
        assertThat(RunQuery.matchesDeciders(List.of(opsBob), s)).isTrue();
        assertThat(RunQuery.matchesDeciders(List.of(any), s)).isFalse();
        assertThat(RunQuery.matchesDeciders(List.of(any, opsAlice, opsBob), s)).isTrue();
        assertThat(RunQuery.matchesDeciders(List.of(), s)).as("an empty list matches nothing").isFalse();
        RunSnapshot lapsed = s.claimed("me", T.minusSeconds(1), "{}");
        assertThat(lapsed.effectiveStatus(T)).isEqualTo(RunStatus.SUSPENDED);
        assertThat(RunQuery.matchesDeciders(List.of(opsBob), lapsed)).as("a claimed run, even with a lapsed lease").isFalse();
        RunQuery q = RunQuery.forAgent("a", T).deciders(List.of(opsBob)).build();
        assertThat(q.matches(s)).isTrue();
        assertThat(q.matches(lapsed)).isFalse();
        assertThat(RunQuery.forAgent("a", T).deciders(List.of(opsAlice)).build().matches(s)).isFalse();
        assertThat(q.features()).containsExactlyInAnyOrder(QueryFeature.BASELINE, QueryFeature.DECIDERS);
        assertThat(q.toBuilder().build()).isEqualTo(q).hasSameHashCodeAs(q);
        assertThat(q).isNotEqualTo(RunQuery.forAgent("a", T).build());
        assertThatThrownBy(() -> new RunQuery.Decider("", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RunQuery.Decider("x", null)).isInstanceOf(NullPointerException.class);
    }
}
