package dev.baton.http;

import dev.baton.agent.Agent;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /agents}: the agents served, with their tools (instructions and descriptions only to
 * unrestricted principals, unless configured); {@code GET /me}: the caller and the resources they may see.
 */
final class AgentHandler {
    private final List<Agent> agents;
    private final boolean detailsForRestricted;

    /**
     * @param agents               the agents served, in the order given to the builder
     * @param detailsForRestricted whether a restricted principal sees instructions and tool descriptions
     */
    AgentHandler(List<Agent> agents, boolean detailsForRestricted) {
        this.agents = List.copyOf(agents);
        this.detailsForRestricted = detailsForRestricted;
    }

    ApiResponse agents(ParsedRequest request) {
        boolean details = detailsForRestricted || !request.caller().isRestricted();
        return ApiResponse.json(200, Map.of("agents", agents.stream().map(a -> new Json.AgentView(a, details)).toList()));
    }

    ApiResponse me(ParsedRequest request) {
        return ApiResponse.json(200, new Json.Me(request.caller()));
    }
}
