package dev.baton.model.springai;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOptions;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.springframework.ai.tool.annotation.Tool;

/**
 * One JVM of {@link ApprovalCycleTest}: an application with a Spring AI model and a {@code @Tool}
 * bean under approval, on a shared store. {@code suspend} starts a run and exits when it waits;
 * {@code approve} (nothing in memory) finds the waiting run in the store, approves it and prints
 * how it ended. Prints one line: {@code RUN <runId> <outcome>} or {@code DONE <outcome> <text>}.
 *
 * <p>Arguments: mode, store URL, provider root URL, agent id, side-effects file.
 */
public final class ApprovalWorker {

    /** The tools of the application: booking appends a line to a file outside the JVM. */
    public static final class Travel {
        private final Path bookings;

        Travel(Path bookings) {
            this.bookings = bookings;
        }

        @Tool(description = "Books a flight")
        public String bookFlight(String to, int passengers) throws IOException {
            Files.writeString(bookings, to + " x" + passengers + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            return "booked " + passengers + " to " + to;
        }
    }

    private ApprovalWorker() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        try (SnapshotStore store = SnapshotStores.open(args[1])) {
            Agent agent = Agent.builder(args[3]).instructions(Fixtures.INSTRUCTIONS)
                    .model(SpringAiModel.streaming(Providers.openAi(args[2])))
                    .tools(SpringAiTools.from(new Travel(Path.of(args[4]))).requireApproval("bookFlight").build())
                    .store(store).instanceId(mode + "-" + ProcessHandle.current().pid()).build();
            if (mode.equals("suspend")) {
                AgentResult r = agent.generate("Book two seats to SFO", RunOptions.builder().resourceId("user-7").build());
                System.out.println("RUN " + r.runId() + " " + r.outcome());
            } else {
                List<AgentRun> waiting = agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().resourceId("user-7").build()).runs();
                AgentRun run = waiting.get(0);
                AgentResult r = agent.approveToolCall(run.runId(), run.toolCalls().get(0).toolCallId()).result();
                System.out.println("DONE " + r.outcome() + " " + r.text());
            }
            agent.close();
        }
        System.exit(0);
    }
}
