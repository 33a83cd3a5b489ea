package dev.baton.tck.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.RunNotFoundException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOutcome;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The discovery rules (SPEC section 4): only suspended runs of the calling agent are listed (another
 * agent's run answers exactly as a missing one), filters exact and combined with and, creation dates
 * inclusive, newest first, pagination only when both {@code page} and {@code perPage} are given, bad
 * options refused naming the option, a run being resumed not listed.
 */
public abstract class Discovery extends AgentRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Discovery(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void onlySuspendedRunsAreListed() {
        Agent agent = agent();
        AgentResult waiting = suspendForApproval(agent, "t", "u");
        agent.generate("What is the weather?", on("t", "u"));
        AgentResult approved = suspendForApproval(agent, "t", "u");
        agent.approveToolCall(approved.runId(), onlyCallId(approved)).result();
        assertThat(runIds(agent.listSuspendedRuns())).containsExactly(waiting.runId());
    }

    /** One run found by its id reads as the listing shows it; another agent's, an ended or a missing run is not found. */
    @Test
    void aSuspendedRunFoundByItsIdIsTheRunTheListingShows() {
        Agent mine = agent();
        Agent other = agentBuilder(agentId + "-other").build();
        AgentResult waiting = suspendForApproval(mine, "t", "u");
        AgentResult done = suspendForApproval(mine, "t", "u");
        mine.approveToolCall(done.runId(), onlyCallId(done)).result();
        assertThat(mine.findSuspendedRun(waiting.runId())).contains(mine.listSuspendedRuns().runs().get(0));
        assertThat(mine.findSuspendedRun(done.runId())).as("an ended run").isEmpty();
        assertThat(other.findSuspendedRun(waiting.runId())).as("another agent's run").isEmpty();
        assertThat(mine.findSuspendedRun("no-such-run")).isEmpty();
        assertThatThrownBy(() -> mine.findSuspendedRun("a\u0000b")).isInstanceOf(InvalidOptionException.class);
    }

    @Test
    void listsOnlyRunsOfTheCallingAgent() {
        Agent mine = agent();
        Agent other = agentBuilder(agentId + "-other").build();
        AgentResult a = suspendForApproval(mine, "t", "u");
        AgentResult b = suspendForApproval(other, "t", "u");
        assertThat(runIds(mine.listSuspendedRuns())).containsExactly(a.runId());
        assertThat(runIds(other.listSuspendedRuns(options().threadId("t").resourceId("u").build())))
                .containsExactly(b.runId());
    }

    @Test
    void anotherAgentsRunAnswersExactlyAsAMissingRun() {
        Agent owner = agent();
        Agent intruder = agentBuilder(agentId + "-intruder").build();
        AgentResult r = suspendForApproval(owner, "t", "u");
        String call = onlyCallId(r);
        RunSnapshot before = stored(r.runId());
        String missing = "no-such-run";
        assertThatThrownBy(() -> intruder.approveToolCall(r.runId(), call)).isInstanceOf(RunNotFoundException.class)
                .hasMessage(new RunNotFoundException(intruder.id(), r.runId()).getMessage());
        assertThatThrownBy(() -> intruder.approveToolCall(missing, call)).isInstanceOf(RunNotFoundException.class)
                .hasMessage(new RunNotFoundException(intruder.id(), missing).getMessage());
        assertThatThrownBy(() -> intruder.declineToolCall(r.runId(), call)).isInstanceOf(RunNotFoundException.class);
        assertThatThrownBy(() -> intruder.resumeStream(Map.of(), r.runId())).isInstanceOf(RunNotFoundException.class);
        assertThat(bookings).hasValue(0);
        assertThat(stored(r.runId())).isEqualTo(before);
        assertThat(owner.approveToolCall(r.runId(), call).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
    }

    @Test
    void threadAndResourceFiltersAreExactAndCombineWithAnd() {
        Agent agent = agent();
        AgentResult t1u1 = suspendForApproval(agent, "t1", "u1");
        AgentResult t1u2 = suspendForApproval(agent, "t1", "u2");
        AgentResult t2u1 = suspendForApproval(agent, "t2", "u1");
        assertThat(runIds(agent.listSuspendedRuns(options().threadId("t1").build())))
                .containsExactly(t1u2.runId(), t1u1.runId());
        assertThat(runIds(agent.listSuspendedRuns(options().resourceId("u1").build())))
                .containsExactly(t2u1.runId(), t1u1.runId());
        assertThat(runIds(agent.listSuspendedRuns(options().threadId("t1").resourceId("u1").build())))
                .containsExactly(t1u1.runId());
        assertThat(agent.listSuspendedRuns(options().threadId("t").build()).total()).isZero();
    }

    @Test
    void dateFiltersAreInclusiveAndApplyToCreationTime() {
        Agent agent = agent();
        AgentResult first = suspendForApproval(agent, "t", "u");
        Instant firstCreated = clock.instant();
        AgentResult second = suspendForApproval(agent, "t", "u");
        Instant secondCreated = clock.instant();
        AgentResult third = suspendForApproval(agent, "t", "u");
        // re-suspending the first run later must not move it in a creation-time filter
        clock.advance(Duration.ofHours(1));
        assertThat(runIds(agent.listSuspendedRuns(options().fromDate(firstCreated).toDate(secondCreated).build())))
                .containsExactly(second.runId(), first.runId());
        assertThat(runIds(agent.listSuspendedRuns(options().fromDate(secondCreated).build())))
                .containsExactly(third.runId(), second.runId());
        assertThat(runIds(agent.listSuspendedRuns(options().toDate(firstCreated).build())))
                .containsExactly(first.runId());
        assertThat(runIds(agent.listSuspendedRuns(options().fromDate(secondCreated).toDate(secondCreated).build())))
                .containsExactly(second.runId());
        assertThat(agent.listSuspendedRuns(options().fromDate(clock.instant()).build()).total()).isZero();
    }

    @Test
    void newestCreationFirstAndTiesBrokenByRunIdDescending() {
        Agent agent = agent();
        List<String> sameInstant = new ArrayList<>();
        clock.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 5; i++) sameInstant.add(agent.generate("flight", on("t", "u")).runId());
        AgentResult newest = suspendForApproval(agent, "t", "u");
        List<String> expected = new ArrayList<>();
        expected.add(newest.runId());
        expected.addAll(sameInstant.stream().sorted(Collections.reverseOrder()).toList());
        assertThat(runIds(agent.listSuspendedRuns())).containsExactlyElementsOf(expected);
    }

    @Test
    void paginationAppliesOnlyWhenPerPageAndPageAreBothGiven() {
        Agent agent = agent();
        List<String> newestFirst = new ArrayList<>();
        for (int i = 0; i < 7; i++) newestFirst.add(0, suspendForApproval(agent, "t", "u").runId());
        AgentListSuspendedRunsResult page1 = agent.listSuspendedRuns(options().perPage(3).page(1).build());
        assertThat(runIds(page1)).containsExactlyElementsOf(newestFirst.subList(3, 6));
        assertThat(page1.total()).isEqualTo(7);
        assertThat(runIds(agent.listSuspendedRuns(options().perPage(3).page(0).build())))
                .containsExactlyElementsOf(newestFirst.subList(0, 3));
        assertThat(runIds(agent.listSuspendedRuns(options().perPage(3).page(2).build())))
                .containsExactlyElementsOf(newestFirst.subList(6, 7));
        assertThat(agent.listSuspendedRuns(options().perPage(3).build()).runs()).hasSize(7);
        assertThat(agent.listSuspendedRuns(options().page(1).build()).runs()).hasSize(7);
    }

    @Test
    void aPagePastTheEndIsEmptyWithTheSameTotal() {
        Agent agent = agent();
        for (int i = 0; i < 3; i++) suspendForApproval(agent, "t", "u");
        AgentListSuspendedRunsResult r = agent.listSuspendedRuns(options().perPage(2).page(5).build());
        assertThat(r.runs()).isEmpty();
        assertThat(r.total()).isEqualTo(3);
    }

    @Test
    void badOptionsGetAnErrorNamingTheOption() {
        Agent agent = agent();
        suspendForApproval(agent, "t", "u");
        assertThatThrownBy(() -> agent.listSuspendedRuns(options().perPage(0).page(0).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("perPage");
        assertThatThrownBy(() -> agent.listSuspendedRuns(options().perPage(-3).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("perPage");
        assertThatThrownBy(() -> agent.listSuspendedRuns(options().perPage(5).page(-1).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("page");
        Instant now = clock.instant();
        assertThatThrownBy(() -> agent.listSuspendedRuns(options().fromDate(now).toDate(now.minusMillis(1)).build()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("fromDate");
        assertThat(agent.listSuspendedRuns().total()).isEqualTo(1);
    }

    @Test
    void aRunBeingResumedIsNotListedAsSuspended() {
        Agent agent = agent();
        AgentResult r = suspendForApproval(agent, "t", "u");
        AgentStream resuming = agent.approveToolCall(r.runId(), onlyCallId(r));
        assertThat(agent.listSuspendedRuns().total()).isZero();
        assertThat(agent.listSuspendedRuns(options().threadId("t").build()).total()).isZero();
        assertThat(agent.countRuns()).containsEntry(RunStatus.RESUMING, 1L).containsEntry(RunStatus.SUSPENDED, 0L);
        assertThat(agent.listResumingRuns()).singleElement().satisfies(l -> {
            assertThat(l.runId()).isEqualTo(r.runId());
            assertThat(l.leaseOwner()).isEqualTo(agent.instanceId());
        });
        assertThat(resuming.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(agent.countRuns()).containsEntry(RunStatus.RESUMING, 0L);
    }
}
