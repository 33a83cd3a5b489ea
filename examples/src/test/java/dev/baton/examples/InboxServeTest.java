package dev.baton.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve}: a real JVM serves the inbox and the API over the runs that {@code start} left in the default store. */
class InboxServeTest {
    static final String TOKEN = "serve-test-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void servesTheInboxAndTheApiOverTheDemoAgents() throws Exception {
        Jvm.Result start = Jvm.inboxApp(dir, "start");
        assertThat(start.exitCode()).as(start.all()).isZero();

        Process p = serve("--token", TOKEN);
        try {
            String page = openLine(p);
            assertThat(page).startsWith("http://127.0.0.1:").endsWith("/#token=" + TOKEN);
            URI base = URI.create(page.substring(0, page.indexOf('#')));

            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> agents = http.send(HttpRequest.newBuilder(base.resolve("agents"))
                    .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(agents.statusCode()).isEqualTo(200);
            assertThat(agents.body()).contains("\"id\":\"concierge\"", "\"id\":\"travel-desk\"", "\"id\":\"visa-desk\"");

            HttpResponse<String> runs = http.send(HttpRequest.newBuilder(base.resolve("agents/concierge/suspended-runs?resourceId=carol"))
                    .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(runs.body()).contains("\"total\":2", "carol-tokyo");

            HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(base.resolve("agents")).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            HttpResponse<String> inbox = http.send(HttpRequest.newBuilder(base).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(inbox.body()).contains("<title>Baton inbox</title>");
        } finally {
            stop(p);
        }
    }

    /** {@code serve --anonymous}: the single-user loopback mode, no token asked (docs/examples.md). */
    @Test
    void anonymousServesWithoutATokenOnLoopback() throws Exception {
        Process p = serve("--anonymous");
        try {
            String page = openLine(p);
            assertThat(page).startsWith("http://127.0.0.1:").contains("--anonymous: no token").doesNotContain("#token=");
            URI base = URI.create(page.substring(0, page.indexOf(' ')));
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> me = http.send(HttpRequest.newBuilder(base.resolve("me")).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
            assertThat(me.body()).contains("\"name\":\"anonymous\"");
        } finally {
            stop(p);
        }
    }

    /**
     * {@code serve --tls-keystore} with a key store made by {@code keytool} as docs/http.md shows: HTTPS,
     * HTTP/2 for a client that offers it by ALPN, Jetty's request log on the output, and {@code SIGTERM}
     * ends the process (the server drained, the agents and the store closed).
     */
    @Test
    void servesHttpsAndHttp2FromAPkcs12KeyStoreLogsEachRequestAndLeavesOnSigterm() throws Exception {
        Path keyStore = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(new File(new File(System.getProperty("java.home"), "bin"), "keytool").getPath(),
                "-genkeypair", "-alias", "baton", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "365",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keyStore.toString(), "-storepass", "changeit").redirectErrorStream(true).start();
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(keyStore)) {
            trust.load(in, "changeit".toCharArray());
        }
        javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);

        Process p = serve("--token", TOKEN, "--tls-keystore", keyStore.toString(), "--tls-password", "changeit");
        List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<String> open = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    output.add(line);
                    if (line.trim().startsWith("open ")) open.complete(line.trim().substring(5).trim());
                }
            } catch (java.io.IOException e) {
                // the process ended
            }
            open.complete("");
        });
        reader.start();
        try {
            String page = open.get(60, TimeUnit.SECONDS);
            assertThat(page).as(String.join("\n", output)).startsWith("https://127.0.0.1:").endsWith("/#token=" + TOKEN);
            URI base = URI.create(page.substring(0, page.indexOf('#')));
            HttpClient http = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_2)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> agents = http.send(HttpRequest.newBuilder(base.resolve("agents"))
                    .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(agents.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(agents.statusCode()).isEqualTo(200);
            HttpResponse<String> http11 = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).build()
                    .send(HttpRequest.newBuilder(base.resolve("openapi.json")).timeout(Duration.ofSeconds(20)).build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(http11.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(http11.statusCode()).isEqualTo(200);
        } finally {
            p.destroy();   // SIGTERM
        }
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the process ends on SIGTERM").isTrue();
        reader.join(10_000);
        String all = String.join("\n", output);
        assertThat(all).as("Jetty's request log").contains("\"GET /agents HTTP/2.0\" 200").contains("\"GET /openapi.json HTTP/1.1\" 200")
                .doesNotContain(TOKEN + "\"");
        assertThat(all).doesNotContain("Exception");
    }

    /** {@code serve --port 0} and {@code options} in a JVM of its own, in the test's folder (its default store). */
    private Process serve(String... options) throws java.io.IOException {
        List<String> cmd = new ArrayList<>(List.of(new File(new File(System.getProperty("java.home"), "bin"), "java").getPath()));
        cmd.addAll(Jvm.FAST_START);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), InboxApp.class.getName(), "serve", "--port", "0"));
        cmd.addAll(List.of(options));
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    }

    /** What the server prints after {@code open} (the page's address), within 60 s; empty if it ended first. */
    private static String openLine(Process p) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        return CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.trim().startsWith("open ")) return line.trim().substring(5).trim();
                }
                return "";
            } catch (java.io.IOException e) {
                return "";
            }
        }).get(60, TimeUnit.SECONDS);
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
    }
}
