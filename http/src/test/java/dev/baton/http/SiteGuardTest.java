package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.store.memory.MemorySnapshotStore;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Where a request comes from ({@link SiteGuard}): {@code Host} against the allowed host names (421),
 * {@code Origin} and {@code Sec-Fetch-Site} of state-changing requests (403 unless trusted), checked
 * before routing and credentials, for every route.
 */
class SiteGuardTest {
    static final String TOKEN = "site-token-0123456789";
    static final String CONTINUE = "/agents/concierge/runs/no-such-run/continue";

    final BatonHttpApi api = api(List.of("localhost", "127.0.0.1", "[::1]"), List.of());

    static BatonHttpApi api(List<String> hosts, List<String> trusted) {
        return BatonHttpApi.builder()
                .agents(TestAgents.concierge("concierge", MemorySnapshotStore.create(), Clock.systemUTC()))
                .authenticator(Authenticator.bearerTokens().token(TOKEN, Principal.unrestricted("ops")).build())
                .allowedHosts(hosts).trustedOrigins(trusted)
                .build();
    }

    static ServletCall.Answer send(BatonHttpApi api, String method, String path, Map<String, String> extra) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Authorization", "Bearer " + TOKEN);
        h.put("Content-Type", "application/json");
        h.putAll(extra);
        h.values().removeIf(v -> v == null || v.isEmpty());
        return ServletCall.send(api, method, path, h, new byte[0]);
    }

    ServletCall.Answer post(@Nullable String host, @Nullable String origin, @Nullable String fetchSite) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Host", host == null ? "" : host);
        h.put("Origin", origin == null ? "" : origin);
        h.put("Sec-Fetch-Site", fetchSite == null ? "" : fetchSite);
        return send(api, "POST", CONTINUE, h);
    }

    @Test
    void onlyLoopbackHostNamesAreAnsweredByDefaultOnEveryRoute() {
        for (String host : new String[] {"localhost", "127.0.0.1:8080", "LOCALHOST:1", "[::1]:9000", "[::1]"}) {
            assertThat(post(host, null, null).type()).as(host).isEqualTo("run-not-found");
        }
        for (String host : new String[] {"attacker.example", "attacker.example:8080", "localhost.attacker.example",
                "127.0.0.1.nip.io", "10.0.0.1", "", "localhost:abc", "x@localhost", "localhost/x"}) {
            ServletCall.Answer r = post(host, null, null);
            assertThat(r.status()).as(host).isEqualTo(421);
            assertThat(r.type()).isEqualTo("misdirected-request");
            assertThat(r.json().path("option").asText()).isEqualTo("Host");
        }
        // before routing and credentials: the page, a GET of data, an unknown path, no token at all
        for (String path : new String[] {"/", "/agents", "/agents/concierge/suspended-runs", "/no-such-path"}) {
            assertThat(send(api, "GET", path, Map.of("Host", "attacker.example", "Authorization", "")).status())
                    .as(path).isEqualTo(421);
        }
    }

    @Test
    void configuredHostNamesReplaceTheLoopbackOnes() {
        BatonHttpApi named = api(List.of("inbox.example.com", "ops.example.com:8443"), List.of());
        assertThat(send(named, "GET", "/agents", Map.of("Host", "inbox.example.com:443")).status()).isEqualTo(200);
        assertThat(send(named, "GET", "/agents", Map.of("Host", "ops.example.com:8443")).status()).isEqualTo(200);
        assertThat(send(named, "GET", "/agents", Map.of("Host", "ops.example.com:9999")).status()).isEqualTo(421);
        assertThat(send(named, "GET", "/agents", Map.of("Host", "localhost")).status()).isEqualTo(421);
        BatonHttpApi any = api(List.of("*"), List.of());
        assertThat(send(any, "GET", "/agents", Map.of("Host", "whatever.example")).status()).isEqualTo(200);
        assertThatThrownBy(() -> api(List.of(), List.of())).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("allowedHosts");
        assertThatThrownBy(() -> api(List.of("http://x/"), List.of())).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("allowedHosts");
        assertThatThrownBy(() -> api(List.of("localhost"), List.of("https://x.example/path")))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("trustedOrigins");
    }

    @Test
    void aStateChangingRequestOfAnotherOriginIsRefusedBeforeItsCredentialsAreLookedAt() {
        assertThat(post("127.0.0.1:8080", "http://127.0.0.1:8080", "same-origin").type()).isEqualTo("run-not-found");
        assertThat(post("127.0.0.1:8080", null, "none").type()).as("typed into the address bar").isEqualTo("run-not-found");
        assertThat(post("localhost", "http://localhost", null).type()).as("default port").isEqualTo("run-not-found");
        String[][] refused = {
            {"http://127.0.0.1:9999", null, "Origin"},          // another port: another origin
            {"http://attacker.example", "cross-site", "Origin"},
            {"null", null, "Origin"},                           // a sandboxed frame, a data: URL
            {null, "same-site", "Sec-Fetch-Site"},              // another port of the same host, Origin stripped
            {null, "cross-site", "Sec-Fetch-Site"},
        };
        for (String[] c : refused) {
            ServletCall.Answer r = post("127.0.0.1:8080", c[0], c[1]);
            assertThat(r.status()).as(String.join(",", String.valueOf(c[0]), String.valueOf(c[1]))).isEqualTo(403);
            assertThat(r.type()).isEqualTo("cross-origin");
            assertThat(r.json().path("option").asText()).isEqualTo(c[2]);
        }
        Map<String, String> noToken = Map.of("Host", "127.0.0.1", "Origin", "http://evil.example", "Authorization", "");
        assertThat(send(api, "POST", CONTINUE, noToken).status()).as("403 before 401").isEqualTo(403);
        assertThat(send(api, "DELETE", "/agents/concierge/runs/r", Map.of("Host", "127.0.0.1", "Sec-Fetch-Site", "cross-site"))
                .status()).isEqualTo(403);
        // reading is not refused: a cross-origin page cannot read the answer without CORS, which is never granted
        assertThat(send(api, "GET", "/agents", Map.of("Host", "127.0.0.1", "Sec-Fetch-Site", "cross-site")).status())
                .isEqualTo(200);
    }

    @Test
    void aTrustedOriginMayPost() {
        BatonHttpApi trusting = api(List.of("127.0.0.1"), List.of("http://127.0.0.1:3000/"));
        Map<String, String> h = Map.of("Host", "127.0.0.1:8080", "Origin", "http://127.0.0.1:3000", "Sec-Fetch-Site", "same-site");
        assertThat(send(trusting, "POST", CONTINUE, h).type()).isEqualTo("run-not-found");
        Map<String, String> other = Map.of("Host", "127.0.0.1:8080", "Origin", "http://127.0.0.1:3001", "Sec-Fetch-Site", "same-site");
        assertThat(send(trusting, "POST", CONTINUE, other).status()).isEqualTo(403);
    }

    @Test
    void theRefusalsOverARealServerAreTheOnesTheOpenApiDocumentLists() {
        try (TestServer t = new TestServer()) {
            ApiClient admin = t.admin();
            String run = t.server.uri() + "agents/concierge/runs/no-such-run/";
            java.net.http.HttpRequest crossOrigin = java.net.http.HttpRequest.newBuilder(java.net.URI.create(run + "cancel"))
                    .header("Authorization", "Bearer " + TestServer.ADMIN).header("Content-Type", "application/json")
                    .header("Origin", "http://127.0.0.1:1").POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build();
            assertThat(admin.send("POST", "/agents/concierge/runs/no-such-run/cancel", crossOrigin).status()).isEqualTo(403);
            java.net.http.HttpRequest untyped = java.net.http.HttpRequest.newBuilder(java.net.URI.create(run + "continue"))
                    .header("Authorization", "Bearer " + TestServer.ADMIN).POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build();
            assertThat(admin.send("POST", "/agents/concierge/runs/no-such-run/continue", untyped).status()).isEqualTo(415);
        }
    }
}
