package dev.baton.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRunToolCall;

/**
 * The JSON of what a run does: its events, how its stream ended, a drained result
 * ({@code AgentEvent}, {@code StreamOutcome}, {@code RunResult} in {@code openapi.json}).
 */
final class EventJson {
    private EventJson() {
    }

    /** An event: {@code type}, {@code runId}, then the fields of its kind. A failure's exception is never written. */
    static ObjectNode event(AgentEvent e) {
        ObjectNode n = Json.object();
        n.put("type", e.type());
        n.put("runId", e.runId());
        if (e instanceof AgentEvent.StepStart s) {
            n.put("step", s.step());
        } else if (e instanceof AgentEvent.TextDelta t) {
            n.put("text", t.text());
        } else if (e instanceof AgentEvent.ToolCall c) {
            toolCall(n, c.toolCallId(), c.toolName());
            n.set("args", c.args());
        } else if (e instanceof AgentEvent.ToolCallApproval a) {
            toolCall(n, a.toolCallId(), a.toolName());
            n.set("args", a.args());
        } else if (e instanceof AgentEvent.ToolCallApproved a) {
            toolCall(n, a.toolCallId(), a.toolName());
            n.set("proposedArgs", a.proposedArgs());
            n.set("approvedArgs", a.approvedArgs());
            n.put("actor", a.actor());
        } else if (e instanceof AgentEvent.ToolCallSuspended s) {
            toolCall(n, s.toolCallId(), s.toolName());
            n.set("args", s.args());
            n.set("suspendPayload", s.suspendPayload());
        } else if (e instanceof AgentEvent.ToolResult r) {
            toolCall(n, r.toolCallId(), r.toolName());
            n.set("result", r.result());
        } else if (e instanceof AgentEvent.ToolError r) {
            toolCall(n, r.toolCallId(), r.toolName());
            n.put("error", r.error());
        } else if (e instanceof AgentEvent.ToolOutputDenied d) {
            toolCall(n, d.toolCallId(), d.toolName());
            n.put("reason", d.reason());
        } else if (e instanceof AgentEvent.StepFinish f) {
            n.put("step", f.step());
            n.put("finishReason", f.finishReason().wireName());
        } else if (e instanceof AgentEvent.Finish f) {
            n.put("finishReason", f.finishReason().wireName());
            n.put("text", f.text());
        } else if (e instanceof AgentEvent.Cancelled c) {
            n.put("reason", c.reason());
        } else if (e instanceof AgentEvent.Error err) {
            n.put("message", err.cause() == null ? err.message() : Problem.runError(err.cause()));
        }
        return n;
    }

    private static void toolCall(ObjectNode n, String toolCallId, String toolName) {
        n.put("toolCallId", toolCallId);
        n.put("toolName", toolName);
    }

    /**
     * How a stream ended: the drained result without its events (the closing {@code outcome} event).
     * {@code error} is the message of what stopped a {@code FAILED} or {@code INTERRUPTED} run (for an
     * interrupted one, a {@link dev.baton.RunInterruptedException}'s, naming its cause); never a stack trace.
     */
    static ObjectNode outcome(AgentResult r) {
        ObjectNode n = Json.object();
        n.put("runId", r.runId());
        n.put("outcome", r.outcome().name());
        n.put("text", r.text());
        ArrayNode waiting = n.putArray("waitingCalls");
        for (AgentRunToolCall c : r.waitingCalls()) waiting.add(RunJson.call(c));
        n.put("error", r.error() == null ? null : Problem.runError(r.error()));
        return n;
    }

    /** A drained result: the outcome and every event. */
    static ObjectNode result(AgentResult r) {
        ObjectNode n = outcome(r);
        ArrayNode events = Json.NODES.arrayNode();
        for (AgentEvent e : r.events()) events.add(event(e));
        n.set("events", events);
        return n;
    }
}
