package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.NotAnApproverException;
import dev.baton.internal.CallState;
import dev.baton.internal.RunState;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The "waiting for me" labels against the rule they stand for: a principal matches a run's labels
 * (by {@link RunQuery#matchesDeciders}, the rule every store implements) exactly when
 * {@link Approvals#check} would admit it to approve (or answer) one of the run's waiting calls.
 */
class DeciderLabelsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LONG = "l".repeat(200);
    private static final Approvals RULES = new Approvals(List.of(
            ApproverRule.builder("big-t1").tool("t1").when(a -> a.path("n").asInt() > 5).approveRoles("finance")
                    .answerRoles("ops").approvals(2).build(),
            ApproverRule.builder("any-t1").tool("t1").approvals(2).build(),
            ApproverRule.builder("one-t2").tool("t2").when(a -> a.path("n").asInt() == 1).roles("finance", "*", LONG)
                    .requesterMayApprove(true).approvals(3).build()));
    private static final List<String> NAMES = List.of("alice", "bob", "carol", "n".repeat(250));
    private static final List<String> ROLES = List.of("finance", "ops", "*", LONG);

    @Test
    void aPrincipalMatchesARunsLabelsExactlyWhenTheApproverRulesLetItDecideOneOfItsWaitingCalls() {
        Random random = new Random(37);
        int matched = 0;
        for (int round = 0; round < 300; round++) {
            RunState state = randomState(random);
            Set<String> labels = DeciderLabels.of(RULES, state);
            RunSnapshot stored = RunSnapshot.builder().runId("r" + round).agentId("a").status(RunStatus.SUSPENDED)
                    .createdAt(Instant.EPOCH).suspendedAt(Instant.EPOCH).payload("{}").summary("{}").deciders(labels).build();
            for (String name : NAMES) {
                for (int mask = 0; mask < 1 << ROLES.size(); mask++) {
                    List<String> roles = new ArrayList<>();
                    for (int i = 0; i < ROLES.size(); i++) if ((mask & 1 << i) != 0) roles.add(ROLES.get(i));
                    Approver who = Approver.of(name, roles);
                    boolean expected = mayDecideOne(state, who);
                    assertThat(RunQuery.matchesDeciders(DeciderLabels.asking(who), stored))
                            .as("%s on a run started by %s with calls %s (labels %s)", who, state.startedBy, describe(state), labels)
                            .isEqualTo(expected);
                    if (expected) matched++;
                }
            }
        }
        assertThat(matched).as("the random runs wait for someone often enough to mean something").isGreaterThan(1_200);
    }

    @Test
    void labelsAreShortEnoughForEveryStoreAndARunWithoutWaitingCallsHasNone() {
        RunState state = new RunState();
        state.startedBy = "n".repeat(250);
        assertThat(DeciderLabels.of(RULES, state)).isEmpty();
        state.calls.add(call("c1", "t2", 1, CallState.Status.AWAITING_APPROVAL, List.of("m".repeat(250))));
        Set<String> labels = DeciderLabels.of(RULES, state);
        assertThat(labels).hasSize(6).allSatisfy(l -> assertThat(l.length()).isBetween(1, RunSnapshot.MAX_DECIDER_LENGTH));
        assertThat(labels).contains("r:finance", "r:*");
        assertThat(labels.stream().filter(l -> l.startsWith("#")))
                .as("the long role's grant and the three exclusions of the long name, hashed").hasSize(4);
        assertThat(DeciderLabels.fit("x".repeat(129))).startsWith("#").hasSize(44).isEqualTo(DeciderLabels.fit("x".repeat(129)));
        assertThat(DeciderLabels.fit("x".repeat(128))).isEqualTo("x".repeat(128));
    }

    private static boolean mayDecideOne(RunState state, Approver who) {
        List<AgentRunToolCall> listed = RunListing.waitingCalls(state, null);
        List<CallState> waiting = state.waitingCalls();
        for (int i = 0; i < waiting.size(); i++) {
            ApproverRule.Action action = listed.get(i).requiresApproval() ? ApproverRule.Action.APPROVE : ApproverRule.Action.ANSWER;
            try {
                RULES.check(state, waiting.get(i), listed.get(i), action,
                        new Decisions.Meta(who.name(), null, null, null, null, who), null);
                return true;
            } catch (NotAnApproverException refused) {
                // not this call
            }
        }
        return false;
    }

    private static RunState randomState(Random random) {
        RunState state = new RunState();
        state.runId = "run";
        state.startedBy = random.nextInt(4) == 0 ? null : NAMES.get(random.nextInt(NAMES.size()));
        int calls = 1 + random.nextInt(3);
        for (int i = 0; i < calls; i++) {
            CallState.Status status = switch (random.nextInt(5)) {
                case 0 -> CallState.Status.AWAITING_DATA;
                case 1 -> CallState.Status.PENDING;
                default -> CallState.Status.AWAITING_APPROVAL;
            };
            List<String> approvedBy = new ArrayList<>();
            if (status == CallState.Status.AWAITING_APPROVAL) {
                for (String n : NAMES) if (random.nextInt(3) == 0) approvedBy.add(n);
            }
            state.calls.add(call("c" + i, random.nextBoolean() ? "t1" : "t2", random.nextInt(10), status, approvedBy));
        }
        return state;
    }

    private static CallState call(String id, String tool, int n, CallState.Status status, List<String> approvedBy) {
        CallState c = new CallState();
        c.toolCallId = id;
        c.toolName = tool;
        c.args = JSON.valueToTree(Map.of("n", n));
        c.status = status;
        c.approvedBy = new ArrayList<>(approvedBy);
        return c;
    }

    private static String describe(RunState state) {
        List<String> out = new ArrayList<>();
        for (CallState c : state.calls) out.add(c.toolName + c.args + " " + c.status + " approvedBy=" + c.approvedBy);
        return out.toString();
    }
}
