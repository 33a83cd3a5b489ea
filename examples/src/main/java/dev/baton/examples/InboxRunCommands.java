package dev.baton.examples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.DeclineOptions;
import dev.baton.examples.InboxCommands.ModelOptions;
import dev.baton.examples.InboxCommands.OnAgents;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The commands that decide on one stored run: {@code approve}, {@code decline}, {@code resume},
 * {@code continue}, {@code cancel} and {@code discard} (registered by {@link InboxCommands#commandLine}).
 * Each records a decision in the audit trail: who ({@code --actor}, default {@link Inbox#defaultActor()}),
 * why ({@code --reason}) and, with {@code --idempotency-key}, a key that makes a retry return the first
 * outcome instead of deciding twice.
 */
final class InboxRunCommands {
    private InboxRunCommands() {
    }

    /** The text {@link InboxApp#usage} prints once for the hidden options of {@link DecisionFlags}. */
    static final String USAGE = String.join(System.lineSeparator(),
            "  --actor NAME  who decides, kept in the audit trail (default: cli: and the OS user, here "
                    + Inbox.defaultActor() + ")",
            "  --idempotency-key KEY  a retry with the same key answers with the first decision; nothing runs twice",
            "  --digest D    (approve, decline) the call's digest as it was shown: refused, and nothing runs,",
            "                if the call waiting is no longer that one");

    /** {@code --actor} and {@code --idempotency-key}: every command that decides takes them. */
    static final class DecisionFlags {
        // hidden from each command's synopsis: the usage explains them once (USAGE)
        @Option(names = "--actor", paramLabel = "NAME", hidden = true) @Nullable String actor;
        @Option(names = "--idempotency-key", paramLabel = "KEY", hidden = true) @Nullable String idempotencyKey;

        /** The decision's options; throws core's InvalidOptionException (a usage error) for a blank or too long actor or key. */
        DecisionOptions options(@Nullable String reason, @Nullable String digest) {
            return DecisionOptions.builder().actor(actor).reason(reason).idempotencyKey(idempotencyKey).digest(digest).build();
        }
    }

    /** A command that decides: the decision flags and the options {@link #check()} builds from them. */
    abstract static class Deciding extends OnAgents {
        @Mixin DecisionFlags flags = new DecisionFlags();
        DecisionOptions decision = DecisionOptions.none();

        @Override
        @Nullable String actor() {
            return flags.actor;
        }
    }

    /** A command that decides and then runs the agent on: it takes the model options too. */
    abstract static class RunsOn extends Deciding {
        @Mixin ModelOptions models = new ModelOptions();

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }
    }

    @Command(name = "approve", description = {"approve a waiting tool call and run on; --args: run it with these",
            "arguments instead (checked against the tool's input schema first)"})
    static final class Approve extends RunsOn {
        @Option(names = "--args", paramLabel = "JSON") @Nullable String edited;
        @Option(names = "--reason", paramLabel = "TEXT") @Nullable String reason;
        @Option(names = "--digest", paramLabel = "D", hidden = true) @Nullable String digest;
        @Parameters(paramLabel = "RUN CALL") List<String> args = new ArrayList<>();
        private @Nullable ApproveOptions options;

        @Override
        void check() {
            exactly(args, 2, "approve", "RUN and CALL");
            decision = flags.options(reason, digest);
            options = ApproveOptions.builder().args(edited == null ? null : InboxApp.json("--args", edited)).reason(reason)
                    .digest(digest).idempotencyKey(decision.idempotencyKey()).actor(decision.actor()).build();
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.approve(agent, args.get(0), args.get(1), java.util.Objects.requireNonNull(options)));
        }
    }

    @Command(name = "decline", description = "decline it: the tool does not run, the model is told why")
    static final class Decline extends RunsOn {
        @Option(names = "--reason", paramLabel = "TEXT") @Nullable String reason;
        @Option(names = "--digest", paramLabel = "D", hidden = true) @Nullable String digest;
        @Parameters(paramLabel = "RUN CALL") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 2, "decline", "RUN and CALL");
            decision = flags.options(reason, digest);
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.decline(agent, args.get(0), args.get(1), DeclineOptions.builder().reason(reason).digest(digest)
                    .idempotencyKey(decision.idempotencyKey()).build()));
        }
    }

    @Command(name = "resume", description = "send data to a call that waits for it, e.g. '{\"passportNumber\":\"X123\"}'")
    static final class Resume extends RunsOn {
        @Option(names = "--call", paramLabel = "CALL") @Nullable String call;
        @Parameters(paramLabel = "RUN JSON") List<String> args = new ArrayList<>();
        private @Nullable JsonNode data;

        @Override
        void check() {
            exactly(args, 2, "resume", "RUN and JSON");
            data = InboxApp.json(args.get(1));
            decision = flags.options(null, null);
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.resume(agent, args.get(0), call, java.util.Objects.requireNonNull(data), decision));
        }
    }

    @Command(name = "continue", description = "continue a run that stopped part-way and waits for nobody (listed as interrupted)")
    static final class ContinueRun extends RunsOn {
        @Parameters(paramLabel = "RUN") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 1, "continue", "RUN");
            decision = flags.options(null, null);
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.continueRun(agent, args.get(0), decision));
        }
    }

    @Command(name = "cancel", description = "cancel a waiting run: nothing more runs, its snapshot goes")
    static final class Cancel extends Deciding {
        @Option(names = "--reason", paramLabel = "TEXT") @Nullable String reason;
        @Parameters(paramLabel = "RUN") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 1, "cancel", "RUN");
            decision = flags.options(reason, null);
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            inbox.cancel(agent, args.get(0), decision);
            return 0;
        }
    }

    @Command(name = "discard", description = "remove a stored run that nobody will resume (nothing runs)")
    static final class Discard extends Deciding {
        @Option(names = "--reason", paramLabel = "TEXT") @Nullable String reason;
        @Parameters(paramLabel = "RUN") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 1, "discard", "RUN");
            decision = flags.options(reason, null);
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            inbox.discard(agent, args.get(0), decision);
            return 0;
        }
    }
}
