package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.RunStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunRecordsTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00.123456789Z");

    private static RunSnapshot snapshot() {
        return new RunSnapshot("r", "a", RunStatus.SUSPENDED, null, null, T, T, 1, null, null, "{}");
    }

    @Test
    void instantsAreKeptToTheMillisecondEveryBackendStores() {
        RunSnapshot s = snapshot();
        assertThat(s.createdAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
        assertThat(s.claimed("me", T, "{}").leaseExpiresAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
    }

    @Test
    void aResumingSnapshotNeedsALeaseAndASuspendedOneHasNone() {
        assertThatThrownBy(() -> new RunSnapshot("r", "a", RunStatus.RESUMING, null, null, T, T, 2, null, null, "{}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaseOwner");
        assertThatThrownBy(() -> new RunSnapshot("r", "a", RunStatus.SUSPENDED, null, null, T, T, 2, "me", T, "{}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RunSnapshot("", "a", RunStatus.SUSPENDED, null, null, T, T, 1, null, null, "{}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RunSnapshot("r", "a", RunStatus.SUSPENDED, null, null, T, T, 0, null, null, "{}"))
                .isInstanceOf(IllegalArgumentException.class);
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
        assertThatThrownBy(() -> new RunQuery("a", null, null, null, null, null, T, 5, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offset");
        assertThatThrownBy(() -> new RunPage(List.of(snapshot()), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theListingOrderIsNewestFirstThenRunIdDescending() {
        RunSnapshot a = new RunSnapshot("a", "x", RunStatus.SUSPENDED, null, null, T, T, 1, null, null, "{}");
        RunSnapshot b = new RunSnapshot("b", "x", RunStatus.SUSPENDED, null, null, T, T, 1, null, null, "{}");
        RunSnapshot older = new RunSnapshot("z", "x", RunStatus.SUSPENDED, null, null, T.minusSeconds(1), T, 1, null, null, "{}");
        assertThat(List.of(older, a, b).stream().sorted(RunQuery.ORDER).map(RunSnapshot::runId)).containsExactly("b", "a", "z");
    }
}
