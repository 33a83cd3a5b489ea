package dev.baton.http;

import dev.baton.agent.Agent;
import java.util.List;

/** {@code GET /agents}: the agents served, with their tools; {@code GET /me}: the caller and the resources they may see. */
final class AgentHandler {
    private final List<Agent> agents;

    /** @param agents the agents served, in the order given to the builder */
    AgentHandler(List<Agent> agents) {
        this.agents = List.copyOf(agents);
    }

    ApiResponse agents(ParsedRequest request) {
        return ApiResponse.json(200, Json.agents(agents));
    }

    ApiResponse me(ParsedRequest request) {
        return ApiResponse.json(200, Json.principal(request.caller()));
    }
}
