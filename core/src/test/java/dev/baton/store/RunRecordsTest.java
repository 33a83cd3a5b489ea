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
}
