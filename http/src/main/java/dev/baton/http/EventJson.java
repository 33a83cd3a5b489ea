package dev.baton.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.FinishReason;

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
        if (e instanceof AgentEvent.Error err) {   // its cause stays in the log: Problem.runError
            n.put("runId", err.runId());
            n.put("message", err.cause() == null ? err.message() : Problem.runError(err.cause()));
            return n;
        }
        // any other event: its record's components, in their order, are its fields (runId first; openapi.json)
        n.setAll((ObjectNode) Json.MAPPER.valueToTree(e));
        JsonNode reason = n.get("finishReason");
        if (reason != null) n.put("finishReason", FinishReason.valueOf(reason.asText()).wireName());
        return n;
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
        n.set("waitingCalls", Json.MAPPER.valueToTree(r.waitingCalls()));   // their records, as a listed run's calls
        n.put("error", r.error() == null ? null : Problem.runError(r.error()));
        return n;
    }

    /** A drained result: the outcome and every event. */
    static ObjectNode result(AgentResult r) {
        ObjectNode n = outcome(r);
        n.putArray("events").addAll(r.events().stream().map(EventJson::event).toList());
        return n;
    }
}
