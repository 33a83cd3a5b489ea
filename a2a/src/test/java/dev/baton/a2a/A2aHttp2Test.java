package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;

/**
 * The A2A servlet over HTTP/2, where a request names its host in {@code :authority} and has no
 * {@code Host} header: its Host check reads the host the container took from {@code :authority}, as
 * the HTTP API does (baton-http's {@code SiteGuard}), so an HTTP/2 client is not refused with 421.
 */
class A2aHttp2Test {
    @Test
    void anHttp2RequestWithoutAHostHeaderIsCheckedAgainstItsAuthority() throws Exception {
        try (SnapshotStore store = SnapshotStores.open("memory:")) {
            Agent agent = A2aServletTest.agent(store, new AtomicInteger());
            Server server = new Server();
            HttpConfiguration config = new HttpConfiguration();
            ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(config), new HTTP2CServerConnectionFactory(config));
            connector.setHost("127.0.0.1");
            server.addConnector(connector);
            ServletContextHandler context = new ServletContextHandler("/");
            server.setHandler(context);
            server.start();
            try {
                String url = "http://127.0.0.1:" + connector.getLocalPort() + "/a2a";
                context.addServlet(new ServletHolder(A2aServlet.builder(agent).authenticator(A2aServletTest.tenants())
                        .publicUrl(URI.create(url)).build()), "/a2a/*");
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
                HttpRequest card = HttpRequest.newBuilder(URI.create(url + "/.well-known/agent-card.json")).build();
                // the first request upgrades the connection (h2c, sent as HTTP/1.1 with Host); the next ones are HTTP/2 frames
                assertThat(http.send(card, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
                HttpResponse<String> again = http.send(card, HttpResponse.BodyHandlers.ofString());
                assertThat(again.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
                HttpResponse<String> call = http.send(HttpRequest.newBuilder(URI.create(url))
                        .header("Authorization", "Bearer " + A2aServletTest.ALICE).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"id\":\"x\"}}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(call.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
                assertThat(call.body()).contains("\"jsonrpc\"");
            } finally {
                server.stop();
                agent.close();
            }
        }
    }
}
