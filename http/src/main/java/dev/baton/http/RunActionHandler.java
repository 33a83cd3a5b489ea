package dev.baton.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.RunNotFoundException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.store.RunSnapshot;
import java.util.Optional;

/**
 * What changes runs: start ({@code POST /agents/{agentId}/runs}), and resume, continue, cancel
 * ({@code POST .../runs/{runId}/<action>}) and discard ({@code DELETE .../runs/{runId}}); approve and
 * decline are {@link DecisionHandler}'s. Every action but start is a decision, recorded with the
 * caller as its actor ({@link DecisionHandler#options}); start records the caller as the run's
 * {@code startedBy}, the requester the approver rules keep from approving its own calls.
 * Each answers the run's events as Server-Sent Events, or the drained result for
 * {@code Accept: application/json}; discard answers 204. Exceptions of the claim (a missing run,
 * a run another caller holds) are thrown before any event is streamed, so a 409 is a real 409.
 */
final class RunActionHandler {

    ApiResponse start(ParsedRequest request) {
        Principal principal = request.caller();
        String prompt = request.requiredString("prompt");
        String resourceId = ListingHandler.resource(principal, request.string("resourceId", false));
        if (resourceId == null && principal.isRestricted()) {
            throw Problem.invalidOption("resourceId", "required: you may start runs for " + principal.resourceIds()).raise();
        }
        if (!principal.mayAccess(resourceId)) {
            throw Problem.of(403, "forbidden-resource", "Forbidden resource",
                    "You may not start runs for resource '" + resourceId + "'.").with("option", "resourceId").raise();
        }
        RunOptions.Builder options = RunOptions.builder().threadId(request.string("threadId", false)).resourceId(resourceId)
                .startedBy(principal.name());   // the requester, whom the approver rules keep from approving its own calls
        JsonNode maxSteps = request.body().get("maxSteps");
        if (maxSteps != null && !maxSteps.isNull()) {
            if (!maxSteps.canConvertToInt() || !maxSteps.isIntegralNumber()) {
                throw Problem.invalidOption("maxSteps", "must be an integer").raise();
            }
            options.maxSteps(maxSteps.intValue());
        }
        return streamOrResult(request, request.target().stream(prompt, options.build()));
    }

    ApiResponse resume(ParsedRequest request) {
        String toolCallId = request.string("toolCallId", false);
        if (!request.body().has("resumeData")) throw Problem.invalidOption("resumeData", "is required (any JSON value)").raise();
        JsonNode data = request.body().get("resumeData");
        Agent agent = checkAccess(request);
        String runId = request.runId();
        ResumeOptions options = toolCallId == null ? ResumeOptions.of(runId) : ResumeOptions.of(runId, toolCallId);
        DecisionOptions decision = DecisionHandler.options(request, null, true);
        return DecisionHandler.answer(request, agent.resumeStream(data, options, decision));
    }

    ApiResponse continueRun(ParsedRequest request) {
        DecisionOptions decision = DecisionHandler.options(request, null, false);
        return DecisionHandler.answer(request, checkAccess(request).continueRun(request.runId(), decision));
    }

    ApiResponse cancel(ParsedRequest request) {
        String reason = request.string("reason", false);
        DecisionOptions decision = DecisionHandler.options(request, reason, false);
        AgentResult result = checkAccess(request).cancelRun(request.runId(), decision);
        if (request.wantsJson()) return ApiResponse.json(200, EventJson.result(result));
        return ApiResponse.eventStream(EventStreamBody.bytes(result));
    }

    ApiResponse discard(ParsedRequest request) {
        DecisionOptions decision = DecisionHandler.options(request, null, false);
        checkAccess(request).discardRun(request.runId(), decision);
        return ApiResponse.noContent();
    }

    /**
     * The request's agent, once the caller may act on the run: a principal limited to resources may
     * act only on their runs; any other run answers exactly like a missing one. (The run's resource
     * never changes, so checking before the claim is safe.)
     */
    static Agent checkAccess(ParsedRequest request) {
        Agent agent = request.target();
        Principal principal = request.caller();
        if (!principal.isRestricted()) return agent;   // the agent itself answers 404 for another agent's run
        String runId = request.runId();
        Optional<RunSnapshot> run = agent.store().find(runId);
        String key = run.isEmpty() ? DecisionHandler.idempotencyKey(request) : null;
        if (key != null && agent.store().findDecision(agent.id(), key)
                .filter(d -> d.runId().equals(runId) && principal.mayAccess(d.resourceId())).isPresent()) {
            // a retry of the caller's own decision that ended the run (the key is scoped to the caller): core replays it
            return agent;
        }
        if (run.isEmpty() || !run.get().agentId().equals(agent.id()) || !principal.mayAccess(run.get().resourceId())) {
            throw new RunNotFoundException(agent.id(), runId);
        }
        return agent;
    }

    /** The stream as Server-Sent Events, or drained into JSON for {@code Accept: application/json}. */
    static ApiResponse streamOrResult(ParsedRequest request, AgentStream stream) {
        if (request.wantsJson()) {
            AgentResult result;
            try (stream) {
                result = stream.result();
            }
            return ApiResponse.json(200, EventJson.result(result));
        }
        return ApiResponse.eventStream(stream);
    }
}
