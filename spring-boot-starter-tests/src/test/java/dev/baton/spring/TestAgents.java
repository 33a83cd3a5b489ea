package dev.baton.spring;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.model.DeterministicModel;
import dev.baton.tool.Tool;
import java.util.Map;
import java.util.function.Consumer;

/** The agent the tests use: {@code bookFlight} waits for approval; {@code getWeather} runs at once. */
final class TestAgents {
    private TestAgents() {
    }

    /** A concierge built with the starter's settings; {@code onTool} runs inside each tool execution. */
    static Agent concierge(BatonAgents baton, String id, Consumer<String> onTool) {
        return baton.agent(id)
                .instructions("You book flights and tell the weather.")
                .model(DeterministicModel.builder()
                        .whenUserSays("flight", "bookFlight", Map.of("to", "Lisbon"))
                        .whenUserSays("weather", "getWeather", Map.of("city", "Porto"))
                        .build())
                .tools(Tool.builder("bookFlight").requireApproval(true).execute((in, ctx) -> {
                            onTool.accept("bookFlight");
                            return Map.of("booked", in.path("to").asText());
                        }).build(),
                        Tool.builder("getWeather").execute((in, ctx) -> {
                            onTool.accept("getWeather");
                            return Map.of("sky", "clear");
                        }).build())
                .build();
    }

    static Agent concierge(BatonAgents baton, String id) {
        return concierge(baton, id, tool -> { });
    }

    /** Starts a run that suspends for the approval of bookFlight. */
    static AgentResult suspendedRun(Agent agent, String resourceId) {
        return agent.generate("Book a flight", RunOptions.builder().resourceId(resourceId).threadId(resourceId + "-thread").build());
    }
}
