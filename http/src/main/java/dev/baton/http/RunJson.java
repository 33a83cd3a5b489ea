package dev.baton.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.Approver;
import dev.baton.agent.ApproverRule;
import dev.baton.agent.CallPermissions;
import dev.baton.tool.Tool;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The JSON of suspended runs: a listing page, a run, a waiting tool call ({@code SuspendedRunPage},
 * {@code SuspendedRun}, {@code WaitingCall} in {@code openapi.json}). A call shows the arguments the
 * model proposed ({@code args}) and the {@code digest} a decision sends back to be bound to it; a run
 * interrupted after an approval lists the approved calls whose tool has not run yet in
 * {@code approvedCalls}, with what a person approved instead ({@code approvedArgs}, after an edit). A
 * listed call that waits for data shows the {@code resumeSchema} its tool declared (or null).
 */
final class RunJson {
    private RunJson() {
    }

    /**
     * A listing page ({@code asOf} last: {@link ListingETag} tags the page without it).
     *
     * @param page  the zero-based page asked for, or null when the page continued after a cursor
     * @param asOf  the agent's clock when the page was read: what {@code expiresAt} compares with
     */
    record Page(List<ObjectNode> runs, long total, @Nullable Integer page, int perPage, @Nullable String nextCursor, Instant asOf) {
        Page(Agent agent, AgentListSuspendedRunsResult found, @Nullable Integer page, int perPage, Approver caller) {
            this(found.runs().stream().map(r -> run(agent, r, caller)).toList(), found.total(), page, perPage, found.nextCursor(),
                    agent.clock().instant());
        }
    }

    /**
     * A run of {@code agent}: its waiting calls of a tool that declared a resume schema show it, and
     * each waiting call says what {@code caller} may do with it now ({@code youMay}: the decisions
     * open to them by the agent's approver rules; {@code whyNot}: why approving, or answering, is not,
     * else null). What is shown is what the decision would be refused for, nothing of other rules.
     */
    static ObjectNode run(Agent agent, AgentRun r, Approver caller) {
        ObjectNode n = Json.MAPPER.valueToTree(r);   // its record's components, in their order
        n.remove("startedBy");   // not part of a listed run (SuspendedRun in openapi.json)
        n.put("interrupted", r.interrupted());
        for (int i = 0; i < r.toolCalls().size(); i++) {
            AgentRunToolCall c = r.toolCalls().get(i);
            ObjectNode call = (ObjectNode) n.get("toolCalls").get(i);
            Tool tool = c.requiresApproval() ? null : agent.tools().get(c.toolName());
            call.set("resumeSchema", tool == null ? Json.NODES.nullNode() : tool.resumeSchema().orElse(Json.NODES.nullNode()));
            CallPermissions may = agent.permissions(r, c, caller);
            ArrayNode youMay = call.putArray("youMay");
            for (ApproverRule.Action a : may.allowed()) youMay.add(a.wireName());
            call.put("whyNot", may.why());
        }
        return n;
    }
}
