package dev.baton.examples.stores;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOptions;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.tool.Tool;
import java.util.Map;

/**
 * What every store example does once its store is open: a run suspends for approval, a second
 * {@link Agent} instance (as a restarted server would build) finds it in the store and approves it.
 */
public final class ApprovalRoundTrip {
    private ApprovalRoundTrip() {
    }

    /** Runs the round trip on {@code store} and prints what happened; the store stays open. */
    public static void run(SnapshotStore store) {
        System.out.println("store: " + store.describe());
        AgentResult first;
        try (Agent agent = agent(store)) {
            first = agent.generate("Book a flight to Oslo",
                    RunOptions.builder().threadId("example-thread").resourceId("example-user").build());
            System.out.println("run " + first.runId() + " " + first.outcome() + ", waiting for approval of "
                    + first.waitingCalls().get(0).toolName());
        }
        // a new instance with the same id, tools and store: what another server or a restart has
        try (Agent again = agent(store)) {
            AgentRun run = again.listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
                    .resourceId("example-user").build()).runs().stream()
                    .filter(r -> r.runId().equals(first.runId())).findFirst().orElseThrow();
            String answer = again.approveToolCall(run.runId(), run.toolCalls().get(0).toolCallId()).text();
            System.out.println("approved from the store: " + answer);
        }
    }

    static Agent agent(SnapshotStore store) {
        Tool bookFlight = Tool.builder("bookFlight").description("Books a flight").requireApproval(true)
                .execute((input, ctx) -> Map.of("booked", input.path("to").asText()))
                .build();
        return Agent.builder("store-example")
                .model(DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "Oslo")).build())
                .tools(bookFlight)
                .store(store)      // a store passed in is never closed by the agent
                .build();
    }

    /** {@code args[0]}, else the environment variable, else {@code fallback}. */
    static String url(String[] args, String env, String fallback) {
        if (args.length > 0) return args[0];
        String v = System.getenv(env);
        return v == null || v.isBlank() ? fallback : v;
    }
}
