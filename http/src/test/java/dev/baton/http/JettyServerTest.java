package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.store.memory.MemorySnapshotStore;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Jetty server does itself: TLS from a PKCS#12 key store with HTTP/2 by ALPN, {@code h2c}
 * in clear text, and Baton's problem documents for what it refuses before the servlet runs.
 */
class JettyServerTest {

    @Test
    void aBadPercentEscapeAnOverLongUriOrHeaderAndAnUnknownMethodAreProblemDocumentsWithTheSecurityHeaders() throws Exception {
        try (TestServer t = new TestServer()) {
            RawHttp.Response escape = RawHttp.get(t.port(), "/agents/concierge/suspended-runs%zz", TestServer.ADMIN);
            assertProblem(escape, 400);
            RawHttp.Response uri = RawHttp.get(t.port(), "/agents/" + "x".repeat(10_000) + "/suspended-runs", TestServer.ADMIN);
            assertProblem(uri, 414);
            RawHttp.Response header = RawHttp.send(t.port(), "GET /agents HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "y".repeat(10_000)
                    + "\r\nAuthorization: Bearer " + TestServer.ADMIN, new byte[0]);
            assertProblem(header, 431);
            RawHttp.Response method = RawHttp.send(t.port(), "BREW /agents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + TestServer.ADMIN, new byte[0]);
            assertProblem(method, 405);
            assertThat(method.header("Allow")).isEqualTo("GET");
            assertThat(t.admin().get("/agents").status()).as("and the server still answers").isEqualTo(200);
        }
    }

    private static void assertProblem(RawHttp.Response r, int status) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(r.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(r.header("Cache-Control")).isEqualTo("no-store");
        assertThat(r.header("X-Frame-Options")).isEqualTo("DENY");
        assertThat(r.header("Server")).as("no server banner").isNull();
        assertThat(r.body()).contains("\"type\":\"urn:baton:problem:").contains("\"status\":" + status).doesNotContain("<html");
    }

    @Test
    void tlsFromAPkcs12KeyStoreServesHttp2ByAlpnAndHttp11ToClientsThatDoNotOfferIt(@TempDir Path dir) throws Exception {
        Path keyStore = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "baton", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", keyStore.toString(), "-storepass", "changeit").redirectErrorStream(true).start();
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        assertThat(Files.size(keyStore)).isPositive();

        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keyStore.toFile())) {
            trust.load(in, "changeit".toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);

        try (var store = MemorySnapshotStore.create()) {
            BatonHttpApi api = BatonHttpApi.builder().agents(TestAgents.concierge("concierge", store, java.time.Clock.systemUTC()))
                    .authenticator(Authenticator.bearerTokens().token(TestServer.ADMIN, Principal.unrestricted("admin")).build()).build();
            try (BatonHttpServer server = BatonHttpServer.builder(api).port(0).tls(keyStore, "changeit").start()) {
                assertThat(server.uri().getScheme()).isEqualTo("https");
                for (HttpClient.Version version : HttpClient.Version.values()) {
                    HttpClient client = HttpClient.newBuilder().sslContext(ssl).version(version).connectTimeout(Duration.ofSeconds(5)).build();
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(server.uri().resolve("agents"))
                            .header("Authorization", "Bearer " + TestServer.ADMIN).build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    assertThat(r.version()).as("ALPN").isEqualTo(version);
                    assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
                    assertThat(r.body()).contains("\"concierge\"");
                    // a run answered as an event stream, over the same protocol
                    HttpResponse<String> run = client.send(HttpRequest.newBuilder(server.uri().resolve("agents/concierge/runs"))
                            .header("Authorization", "Bearer " + TestServer.ADMIN).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"Book a flight to Oslo\"}")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
                    assertThat(run.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
                    assertThat(run.body()).contains("event: outcome");
                }
            }
        }
    }

    @Test
    void inClearTextAClientThatAsksForHttp2GetsItByUpgrade() throws Exception {
        try (TestServer t = new TestServer()) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(t.server.uri().resolve("agents"))
                    .header("Authorization", "Bearer " + TestServer.ADMIN).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
            HttpResponse<String> again = client.send(HttpRequest.newBuilder(t.server.uri().resolve("me"))
                    .header("Authorization", "Bearer " + TestServer.ADMIN).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(again.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(again.body()).contains("\"admin\"");
        }
    }

    /** {@code maxConnections}: one more connection waits unanswered until one closes; {@code idleTimeout} closes a silent one. */
    @Test
    void connectionsBeyondTheLimitWaitAndASilentConnectionIsClosedAfterTheIdleTime() throws Exception {
        try (var store = MemorySnapshotStore.create()) {
            BatonHttpApi api = BatonHttpApi.builder().agents(TestAgents.concierge("concierge", store, java.time.Clock.systemUTC()))
                    .authenticator(Authenticator.bearerTokens().token(TestServer.ADMIN, Principal.unrestricted("admin")).build()).build();
            try (BatonHttpServer server = BatonHttpServer.builder(api).port(0).maxConnections(2).idleTimeout(Duration.ofSeconds(3)).start();
                 java.net.Socket first = new java.net.Socket("127.0.0.1", server.port());
                 java.net.Socket second = new java.net.Socket("127.0.0.1", server.port());
                 java.net.Socket third = new java.net.Socket("127.0.0.1", server.port())) {
                long opened = System.nanoTime();
                third.getOutputStream().write("GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                third.setSoTimeout(1_000);
                assertThatThrownBy(() -> third.getInputStream().read()).as("the third connection is not served while two are open")
                        .isInstanceOf(java.net.SocketTimeoutException.class);
                second.setSoTimeout(10_000);
                assertThat(second.getInputStream().read()).as("a silent connection, closed by the server").isEqualTo(-1);
                long idleMillis = (System.nanoTime() - opened) / 1_000_000;
                assertThat(idleMillis).as("closed after the 3 s idle time").isBetween(2_500L, 6_000L);
                third.setSoTimeout(10_000);
                String answer = new String(third.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(answer).as("served once a connection closed").startsWith("HTTP/1.1 200");
            }
        }
    }
}
