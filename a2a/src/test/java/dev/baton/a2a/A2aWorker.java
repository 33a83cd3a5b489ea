package dev.baton.a2a;

import dev.baton.agent.Agent;
import dev.baton.http.Authenticator;
import dev.baton.http.Principal;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tool.Tool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

/**
 * One Baton instance of {@link A2aTwoJvmTest}: the agent over the shared store, served by
 * {@link A2aServlet} in Jetty on a free port. Prints {@code port N} once it serves, then serves until
 * it is killed. The refund tool appends to {@code ROOT/ledger.txt}, so the test counts its runs
 * across JVMs.
 *
 * <p>{@code java -cp CLASSPATH dev.baton.a2a.A2aWorker STORE_URL ROOT}; with {@code STORE_URL delegate REMOTE_URL}
 * it is instead an agent whose A2aTool calls the remote agent: it prints {@code outcome SUSPENDED} once its run
 * waits on the remote task, then waits to be killed.
 */
public final class A2aWorker {
    static final String TOKEN = "token-alice-0123456789";

    private A2aWorker() {
    }

    static Agent agent(SnapshotStore store, Path root) {
        Tool refund = Tool.builder("refund").requireApproval(true).execute((input, ctx) -> {
            Files.writeString(root.resolve("ledger.txt"), "refund " + ctx.idempotencyKey() + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            return "refunded order " + input.path("order").asText();
        }).build();
        return Agent.builder("concierge").store(store).tools(refund).leaseDuration(Duration.ofSeconds(2))
                .model(DeterministicModel.builder().whenUserSays("refund", "refund", Map.of("order", "7")).build())
                .build();
    }

    /** The agent that delegates to a remote A2A agent: "refund" calls the billing tool. */
    static Agent delegating(SnapshotStore store, String remoteUrl) {
        return Agent.builder("assistant").store(store).leaseDuration(Duration.ofSeconds(2))
                .tools(A2aTool.builder("billing", java.net.URI.create(remoteUrl)).build())
                .model(DeterministicModel.builder().whenUserSays("refund", "billing", Map.of("message", "Please refund me")).build())
                .build();
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[1].equals("delegate")) {
            // A2aTool's side: start a run that waits on the remote task, say so, and wait to be killed
            SnapshotStore store = SnapshotStores.open(args[0]);
            Agent agent = delegating(store, args[2]);
            System.out.println("outcome " + agent.generate("refund my invoice").outcome());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
        SnapshotStore store = SnapshotStores.open(args[0]);
        Agent agent = agent(store, Path.of(args[1]));
        JettyServer server = JettyServer.start(0, "/a2a", url -> A2aServlet.builder(agent)
                .authenticator(Authenticator.bearerTokens().token(TOKEN, Principal.limitedTo("alice", "acme")).build())
                .publicUrl(url).build());
        System.out.println("port " + server.port);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);   // serves until killed
    }
}
