package dev.baton.examples;

import dev.baton.examples.InboxCommands.IntegerOption;
import dev.baton.examples.InboxCommands.OnAgents;
import dev.baton.examples.InboxCommands.Root;
import dev.baton.http.Authenticator;
import dev.baton.http.BatonHttpApi;
import dev.baton.http.BatonHttpServer;
import dev.baton.http.Principal;
import dev.baton.store.SnapshotStore;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** The {@code serve} command (registered by {@link InboxCommands#commandLine}). */
final class InboxServeCommand {
    private InboxServeCommand() {
    }

    /** The web inbox and the HTTP API over the three agents, until the process is stopped. */
    @Command(name = "serve", description = {"serve the inbox page and the HTTP API over the agents (baton-http)",
            "until Ctrl+C; prints the page's address with a fresh access token"})
    static final class Serve implements Callable<Integer> {
        @ParentCommand Root root;
        @Option(names = "--port", paramLabel = "N", converter = IntegerOption.class) int port = 8080;
        @Option(names = "--host", paramLabel = "ADDR") String host = "127.0.0.1";
        @Option(names = "--token", paramLabel = "TOKEN") @Nullable String token;
        /** Host names the server answers to besides loopback's (the Host header; DNS rebinding is refused). */
        @Option(names = "--allowed-host", paramLabel = "NAME") List<String> allowedHosts = new ArrayList<>();
        /** JWTs of an identity provider instead of the printed token: all three or none. */
        @Option(names = "--jwks", paramLabel = "URL") @Nullable String jwks;
        @Option(names = "--issuer", paramLabel = "ISS") @Nullable String issuer;
        @Option(names = "--audience", paramLabel = "AUD") @Nullable String audience;
        /** HTTPS (and HTTP/2) with the key and certificate of a PKCS#12 key store, its password with it. */
        @Option(names = "--tls-keystore", paramLabel = "FILE") java.nio.file.@Nullable Path tlsKeyStore;
        @Option(names = "--tls-password", paramLabel = "PASSWORD") @Nullable String tlsPassword;
        /** No token at all: the single-user loopback mode (Authenticator.anonymous()); loopback hosts only. */
        @Option(names = "--anonymous", description = "no token: every request is 'anonymous' (only on a loopback --host)")
        boolean anonymous;
        @Parameters(paramLabel = "", hidden = true) List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws InterruptedException {
            OnAgents.exactly(args, 0, "serve", "no arguments, only options");
            if (port < 0 || port > 65535) throw new UsageException("--port must be 0..65535, was " + port);
            String secret = token != null ? token : newToken();
            if (anonymous && (token != null || jwks != null || issuer != null || audience != null)) {
                throw new UsageException("--anonymous takes no --token, --jwks, --issuer or --audience: it lets every request in without one");
            }
            if (anonymous && !LOOPBACK.contains(host)) {
                throw new UsageException("--anonymous: only on a loopback --host (127.0.0.1, ::1, localhost), was " + host
                        + "; anyone who reaches the port could approve every run");
            }
            Authenticator auth;
            try {
                auth = anonymous ? Authenticator.anonymous()
                        : jwks != null || issuer != null || audience != null ? ServeJwt.authenticator(jwks, issuer, audience, token)
                        : Authenticator.bearerTokens().token(secret, Principal.unrestricted("inbox")).build();
            } catch (IllegalArgumentException e) {
                String option = jwks != null ? "--jwks/--issuer/--audience" : "--token";
                throw new UsageException(option + ": " + e.getMessage().substring(e.getMessage().indexOf(':') + 2));
            }
            if ((tlsKeyStore == null) != (tlsPassword == null)) {
                throw new UsageException("--tls-keystore and --tls-password go together");
            }
            // Jetty: request headers and bodies are bounded by the server's requestTimeout (30 s), connections by
            // maxConnections (1024); a slow client holds no thread

            SnapshotStore store = InboxApp.openStore(root.storeUrl());
            TravelAgents agents = new TravelAgents(store, Clock.systemUTC());
            BatonHttpServer server;
            try {
                List<String> hosts = new ArrayList<>(List.of("localhost", "127.0.0.1", "[::1]"));
                hosts.addAll(allowedHosts);
                BatonHttpApi api = BatonHttpApi.builder().agents(agents.all()).authenticator(auth).allowedHosts(hosts).build();
                BatonHttpServer.Builder b = BatonHttpServer.builder(api).host(host).port(port);
                if (tlsKeyStore != null && tlsPassword != null) b.tls(tlsKeyStore, tlsPassword);
                server = b.start();
            } catch (RuntimeException e) {
                agents.close();
                store.close();
                if (e instanceof dev.baton.InvalidOptionException io) throw new UsageException("--tls-keystore: " + io.getMessage());
                throw e instanceof IllegalStateException failed ? new UsageException("--port: " + failed.getMessage()) : e;
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {   // SIGTERM or Ctrl+C: leave gracefully
                Thread closing = new Thread(agents::close, "inbox-agents-close");   // tools finish, runs handed back
                closing.start();
                server.close(java.time.Duration.ofSeconds(10));   // stops listening; requests under way end
                try {
                    closing.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                store.close();
                stopped.countDown();
            }, "inbox-stop"));
            PrintStream out = root.out;
            out.println("Baton inbox over " + TravelAgents.ids() + " (store: " + store.describe() + ")");
            String shown = jwks != null ? "<a JWT of " + issuer + " for " + audience + ">" : secret;
            if (anonymous) {
                out.println("  open   " + server.uri() + "   (--anonymous: no token; only this machine can reach it)");
                out.println("  API    " + server.uri() + "agents");
            } else {
                out.println("  open   " + server.uri() + "#token=" + shown);
                out.println("  API    " + server.uri() + "agents  with  Authorization: Bearer " + shown);
            }
            out.println("  OpenAPI " + server.uri() + "openapi.json");
            out.println("No runs yet? In another shell: java -jar examples/target/baton-examples.jar start. Ctrl+C stops the server.");
            out.flush();
            stopped.await();
            return 0;
        }

        private static final java.util.Set<String> LOOPBACK = java.util.Set.of("127.0.0.1", "::1", "[::1]", "localhost");

        private static String newToken() {
            byte[] bytes = new byte[24];
            new SecureRandom().nextBytes(bytes);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        }
    }
}
