package dev.baton.examples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.examples.InboxCommands.ModelOptions;
import dev.baton.examples.InboxCommands.OnAgents;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The commands that decide on one stored run: {@code approve}, {@code decline}, {@code resume},
 * {@code continue}, {@code cancel} and {@code discard} (registered by {@link InboxCommands#commandLine}).
 */
final class InboxRunCommands {
    private InboxRunCommands() {
    }

    @Command(name = "approve", description = "approve a waiting tool call and run on")
    static final class Approve extends OnAgents {
        @picocli.CommandLine.Mixin ModelOptions models = new ModelOptions();

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }

        @Parameters(paramLabel = "RUN CALL") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 2, "approve", "RUN and CALL");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.approve(agent, args.get(0), args.get(1)));
        }
    }

    @Command(name = "decline", description = "decline it: the tool does not run, the model is told why")
    static final class Decline extends OnAgents {
        @picocli.CommandLine.Mixin ModelOptions models = new ModelOptions();

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }

        @Option(names = "--reason", paramLabel = "TEXT") @Nullable String reason;
        @Parameters(paramLabel = "RUN CALL") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 2, "decline", "RUN and CALL");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.decline(agent, args.get(0), args.get(1), reason));
        }
    }

    @Command(name = "resume", description = "send data to a call that waits for it, e.g. '{\"passportNumber\":\"X123\"}'")
    static final class Resume extends OnAgents {
        @picocli.CommandLine.Mixin ModelOptions models = new ModelOptions();

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }

        @Option(names = "--call", paramLabel = "CALL") @Nullable String call;
        @Parameters(paramLabel = "RUN JSON") List<String> args = new ArrayList<>();
        private @Nullable JsonNode data;

        @Override
        void check() {
            exactly(args, 2, "resume", "RUN and JSON");
            data = InboxApp.json(args.get(1));
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.resume(agent, args.get(0), call, java.util.Objects.requireNonNull(data)));
        }
    }

    @Command(name = "continue", description = "continue a run that stopped part-way and waits for nobody (listed as interrupted)")
    static final class ContinueRun extends OnAgents {
        @picocli.CommandLine.Mixin ModelOptions models = new ModelOptions();
        @Parameters(paramLabel = "RUN") List<String> args = new ArrayList<>();

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }

        @Override
        void check() {
            exactly(args, 1, "continue", "RUN");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.continueRun(agent, args.get(0)));
        }
    }

    @Command(name = "cancel", description = "cancel a waiting run: nothing more runs, its snapshot goes")
    static final class Cancel extends OnAgents {
        @Option(names = "--reason", paramLabel = "TEXT") @Nullable String reason;
        @Parameters(paramLabel = "RUN") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 1, "cancel", "RUN");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            AgentResult r = agent.cancelRun(args.get(0), reason);
            root.out.println("Cancelled run " + r.runId() + (reason == null ? "" : ": " + reason));
            return 0;
        }
    }

    @Command(name = "discard", description = "remove a stored run that nobody will resume (nothing runs)")
    static final class Discard extends OnAgents {
        @Parameters(paramLabel = "RUN") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 1, "discard", "RUN");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            agent.discardRun(args.get(0));
            root.out.println("Discarded run " + args.get(0));
            return 0;
        }
    }
}
