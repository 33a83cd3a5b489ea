package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Options are classes with builders: validated by build(), copied by toBuilder(), compared by value. */
class OptionsTest {
    @Test
    void listingOptionsRefuseBadValuesWhenBuiltNamingTheOption() {
        assertThatThrownBy(() -> AgentListSuspendedRunsOptions.builder().perPage(0).build())
                .isInstanceOf(IllegalArgumentException.class).isInstanceOf(InvalidOptionException.class)
                .hasMessageStartingWith("perPage");
        assertThatThrownBy(() -> AgentListSuspendedRunsOptions.builder().page(-1).build()).hasMessageStartingWith("page");
        assertThatThrownBy(() -> AgentListSuspendedRunsOptions.builder().fromDate(Instant.ofEpochSecond(2))
                .toDate(Instant.ofEpochSecond(1)).build()).hasMessageStartingWith("fromDate");
        assertThatThrownBy(() -> AgentListSuspendedRunsOptions.builder().cursor("c1.xx").page(0).perPage(1).build())
                .hasMessageStartingWith("cursor");
        assertThatThrownBy(() -> AgentListSuspendedRunsOptions.builder().cursor("nonsense").perPage(1).build())
                .hasMessageStartingWith("cursor");
        // the decision listing's page size is DecisionQuery's rule, checked once, with one message
        for (int limit : new int[] {0, dev.baton.store.DecisionQuery.MAX_LIMIT + 1}) {
            String message = "limit: must be 1.." + dev.baton.store.DecisionQuery.MAX_LIMIT + ", was " + limit;
            assertThatThrownBy(() -> AgentListDecisionsOptions.builder().limit(limit).build())
                    .isInstanceOf(InvalidOptionException.class).hasMessage(message);
            assertThatThrownBy(() -> dev.baton.store.DecisionQuery.forAgent("a").limit(limit).build())
                    .isInstanceOf(InvalidOptionException.class).hasMessage(message);
        }
        assertThat(AgentListDecisionsOptions.builder().limit(dev.baton.store.DecisionQuery.MAX_LIMIT).build()
                .toQuery("a").limit()).isEqualTo(dev.baton.store.DecisionQuery.MAX_LIMIT);
        assertThatThrownBy(() -> AgentListDecisionsOptions.builder().from(Instant.ofEpochSecond(3)).to(Instant.ofEpochSecond(2))
                .build()).hasMessageStartingWith("from: must not be after to");
        // both bounds inclusive, as the run listing's: one instant is a range
        assertThat(AgentListDecisionsOptions.builder().from(Instant.ofEpochSecond(2)).to(Instant.ofEpochSecond(2)).build().to())
                .isEqualTo(Instant.ofEpochSecond(2));
        assertThatThrownBy(() -> AgentListDecisionsOptions.builder().cursor("nonsense").build()).hasMessageStartingWith("cursor");
    }

    @Test
    void listingOptionsRoundTripThroughTheirBuilder() {
        AgentListSuspendedRunsOptions o = AgentListSuspendedRunsOptions.builder().threadId("t").resourceId("u")
                .fromDate(Instant.EPOCH).perPage(10).page(2).build();
        assertThat(o.toBuilder().build()).isEqualTo(o).hasSameHashCodeAs(o);
        assertThat(o.paginated()).isTrue();
        assertThat(o.toBuilder().page(3).build().page()).isEqualTo(3);
        assertThat(AgentListSuspendedRunsOptions.ALL.paginated()).isFalse();
    }

    @Test
    void runOptionsValidateAndRoundTrip() {
        assertThatThrownBy(() -> RunOptions.builder().maxSteps(0).build()).hasMessageStartingWith("maxSteps");
        assertThatThrownBy(() -> RunOptions.builder().waitTimeout(Duration.ZERO).build()).hasMessageStartingWith("waitTimeout");
        RunOptions o = RunOptions.builder().threadId("t").resourceId("u").maxSteps(3).waitTimeout(Duration.ofMinutes(1)).build();
        assertThat(o.toBuilder().build()).isEqualTo(o);
        assertThat(RunOptions.DEFAULT.maxSteps()).isNull();
    }

    @Test
    void resumeOptionsNeedARunId() {
        assertThatThrownBy(() -> ResumeOptions.builder().toolCallId("c").build()).isInstanceOf(InvalidOptionException.class)
                .hasMessageStartingWith("runId");
        assertThat(ResumeOptions.of("r", "c")).isEqualTo(ResumeOptions.builder().runId("r").toolCallId("c").build());
        assertThat(ResumeOptions.of("r").toBuilder().toolCallId("c").build().toolCallId()).isEqualTo("c");
    }
}
