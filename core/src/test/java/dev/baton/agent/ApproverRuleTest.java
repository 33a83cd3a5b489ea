package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.InvalidOptionException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Approver rules and approvers as values: what they admit, what they refuse when built, and their defaults. */
class ApproverRuleTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode args(Object o) {
        return JSON.valueToTree(o);
    }

    @Test
    void aRuleAppliesToItsToolAndTheArgumentsItsPredicateAcceptsAndFailsClosedWhenThePredicateThrows() {
        ApproverRule big = ApproverRule.builder("big").tool("refund").when(a -> a.path("amount").asInt() > 1000).build();
        assertThat(big.appliesTo("refund", args(Map.of("amount", 1001)))).isTrue();
        assertThat(big.appliesTo("refund", args(Map.of("amount", 1000)))).isFalse();
        assertThat(big.appliesTo("deploy", args(Map.of("amount", 5000)))).isFalse();
        ApproverRule broken = ApproverRule.builder("broken").tool("refund").when(a -> {
            throw new IllegalStateException("boom");
        }).build();
        assertThat(broken.appliesTo("refund", args(Map.of()))).as("a predicate that throws: the rule applies").isTrue();
        // the predicate sees a copy: changing it changes nothing
        JsonNode given = args(Map.of("amount", 5));
        ApproverRule.builder("meddling").tool("refund").when(a -> {
            ((com.fasterxml.jackson.databind.node.ObjectNode) a).put("amount", 99);
            return true;
        }).build().appliesTo("refund", given);
        assertThat(given.path("amount").asInt()).isEqualTo(5);
    }

    @Test
    void rolesOfAnActionLeftUnsetAreTheApproveRolesAndNoRolesAdmitAnyNamedApprover() {
        ApproverRule r = ApproverRule.builder("r").tool("t").approveRoles("finance").declineRoles("support").build();
        assertThat(r.roles(ApproverRule.Action.EDIT)).containsExactly("finance");
        assertThat(r.roles(ApproverRule.Action.ANSWER)).containsExactly("finance");
        assertThat(r.roles(ApproverRule.Action.DECLINE)).containsExactly("support");
        assertThat(r.admits(Approver.of("bob", "support"), ApproverRule.Action.DECLINE)).isTrue();
        assertThat(r.admits(Approver.of("bob", "support"), ApproverRule.Action.APPROVE)).isFalse();
        ApproverRule open = ApproverRule.builder("open").tool("t").approvals(2).build();
        assertThat(open.admits(Approver.of("anyone"), ApproverRule.Action.APPROVE)).isTrue();
        assertThat(open.requesterMayApprove()).as("separation of duties by default").isFalse();
        ApproverRule reset = ApproverRule.builder("reset").tool("t").declineRoles("x").roles("ops").build();
        assertThat(reset.roles(ApproverRule.Action.DECLINE)).as("roles(...) sets every action").containsExactly("ops");
    }

    @Test
    void badRulesAndApproversAreRefusedWhenBuiltNamingTheOption() {
        assertThatThrownBy(() -> ApproverRule.builder(" ")).isInstanceOf(InvalidOptionException.class).hasMessageStartingWith("name");
        assertThatThrownBy(() -> ApproverRule.builder("r").build()).isInstanceOf(InvalidOptionException.class)
                .hasMessageStartingWith("tool");
        assertThatThrownBy(() -> ApproverRule.builder("r").tool("t").approvals(0)).hasMessageStartingWith("approvals");
        assertThatThrownBy(() -> ApproverRule.builder("r").tool("t").approvals(11)).hasMessageStartingWith("approvals");
        assertThatThrownBy(() -> ApproverRule.builder("r").tool("t").roles("ok", " ")).hasMessageStartingWith("roles");
        assertThatThrownBy(() -> Approver.of(" ")).isInstanceOf(InvalidOptionException.class).hasMessageStartingWith("approver");
        assertThatThrownBy(() -> Approver.of("x".repeat(256))).hasMessageStartingWith("approver");
        assertThatThrownBy(() -> Approver.of("maria", "")).hasMessageStartingWith("roles");
        assertThatThrownBy(() -> RunOptions.builder().startedBy(" ").build()).hasMessageStartingWith("startedBy");
    }

    @Test
    void anApproverSetsTheActorAndAnActorAloneHasNoRoles() {
        Approver maria = Approver.of("maria", "finance", "finance", "ops");
        assertThat(maria.roles()).containsExactly("finance", "ops");
        ApproveOptions o = ApproveOptions.builder().approver(maria).build();
        assertThat(o.actor()).isEqualTo("maria");
        assertThat(o.approver()).isEqualTo(maria);
        assertThat(ApproveOptions.builder().approver(maria).actor("john").build().approver())
                .as("another actor drops the approver's roles").isNull();
        assertThat(ApproveOptions.builder().approver(maria).actor("maria").build().approver()).isEqualTo(maria);
        assertThat(DeclineOptions.builder().approver(maria).build().actor()).isEqualTo("maria");
        assertThat(DecisionOptions.builder().approver(maria).build().approver()).isEqualTo(maria);
        assertThat(RunOptions.builder().startedBy("alice").build().toBuilder().build().startedBy()).isEqualTo("alice");
    }
}
