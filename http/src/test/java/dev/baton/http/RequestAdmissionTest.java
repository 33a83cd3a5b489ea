package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.http.ServletCall.Answer;
import dev.baton.store.memory.MemorySnapshotStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The order in which a request is admitted, before any handler runs: the route (404, 405), then
 * credentials (401), then the agent of the path (404), then the body (415, 413, 400), and only
 * then the run. Answered by the servlet alone, without a container ({@link ServletCall}).
 */
class RequestAdmissionTest {
    static final String TOKEN = "admission-token-0123456789";
    static final int LIMIT = 64;

    final BatonHttpApi api = BatonHttpApi.builder()
            .agents(TestAgents.concierge("concierge", MemorySnapshotStore.create(), Clock.systemUTC()))
            .authenticator(Authenticator.bearerTokens().token(TOKEN, Principal.unrestricted("ops")).build())
            .maxBodyBytes(LIMIT)
            .build();

    Answer send(String method, String path, @Nullable String token, @Nullable String contentType, String body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "127.0.0.1");
        if (token != null) headers.put("Authorization", "Bearer " + token);
        if (contentType != null) headers.put("Content-Type", contentType);
        return ServletCall.send(api, method, path, headers, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anUnknownPathOrAWrongMethodIsAnsweredBeforeCredentialsAreAsked() {
        assertThat(send("GET", "/nowhere", null, null, "").type()).isEqualTo("not-found");
        Answer put = send("PUT", "/agents", null, null, "");
        assertThat(put.status()).isEqualTo(405);
        assertThat(put.headers()).containsEntry("Allow", "GET");
        assertThat(send("GET", "/agents/con%ZZcierge/suspended-runs", null, null, "").json().path("option").asText())
                .as("a bad escape, decoded once by the router").isEqualTo("path");
    }

    @Test
    void credentialsAreCheckedBeforeTheAgentIsLookedUp() {
        Answer anonymous = send("GET", "/agents/nobody/suspended-runs", null, null, "");
        assertThat(anonymous.status()).as("no agent id is confirmed to a stranger").isEqualTo(401);
        assertThat(anonymous.headers()).containsEntry("WWW-Authenticate", "Bearer realm=\"baton\"");
        assertThat(send("GET", "/agents/nobody/suspended-runs", "wrong-token-00000000", null, "").headers())
                .containsEntry("WWW-Authenticate", "Bearer realm=\"baton\", error=\"invalid_token\"");
        assertThat(send("GET", "/agents/nobody/suspended-runs", TOKEN, null, "").type()).isEqualTo("agent-not-found");
    }

    @Test
    void theAgentIsLookedUpBeforeTheBodyIsRead() {
        assertThat(send("POST", "/agents/nobody/runs", TOKEN, "application/json", "x".repeat(LIMIT * 2)).type())
                .isEqualTo("agent-not-found");
    }

    @Test
    void aRequiredBodyHasItsTypeCheckedBeforeItsSizeThenItsShape() {
        String big = "{\"prompt\":\"" + "x".repeat(LIMIT) + "\"}";
        assertThat(send("POST", "/agents/concierge/runs", TOKEN, "text/plain", big).status()).isEqualTo(415);
        Answer tooLarge = send("POST", "/agents/concierge/runs", TOKEN, "application/json", big);
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.headers()).containsEntry("Connection", "close");
        assertThat(tooLarge.json().fieldNames()).toIterable().as("the extension members in the order they were added")
                .containsExactly("type", "title", "status", "detail", "option", "maxBodyBytes");
        assertThat(send("POST", "/agents/concierge/runs", TOKEN, "application/json", "[]").json().path("option").asText())
                .isEqualTo("body");
        assertThat(send("POST", "/agents/concierge/runs", TOKEN, "application/json", "{\"prompt\":\"p\",\"force\":1}")
                .json().path("option").asText()).isEqualTo("force");
    }

    @Test
    void anOptionalBodyMayBeEmptyButEveryPostNeedsTheJsonType() {
        String run = "/agents/concierge/runs/no-such-run/continue";
        assertThat(send("POST", run, TOKEN, "application/json", "").type()).as("admitted: the run is looked up")
                .isEqualTo("run-not-found");
        for (String type : new String[] {null, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"}) {
            Answer refused = send("POST", run, TOKEN, type, "");
            assertThat(refused.status()).as(type).isEqualTo(415);
            assertThat(refused.json().path("option").asText()).isEqualTo("Content-Type");
        }
        assertThat(send("POST", run, TOKEN, "application/json", "x".repeat(LIMIT + 1)).status()).isEqualTo(413);
        assertThat(send("POST", run, TOKEN, "text/plain", "{}").status()).isEqualTo(415);
    }

    @Test
    void theBodyIsCheckedBeforeTheRunIsLookedUp() {
        Answer r = send("POST", "/agents/concierge/runs/no-such-run/approve", TOKEN, "application/json", "{\"callId\":\"c\"}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().path("option").asText()).isEqualTo("callId");
    }

    @Test
    void aRouteWithoutABodyNeverReadsOne() {
        // a body that fails the test if it is read (it declares one byte)
        Answer delete = ServletCall.send(api, "DELETE", "/agents/concierge/runs/no-such-run",
                Map.of("Authorization", "Bearer " + TOKEN, "Host", "127.0.0.1"), null);
        assertThat(delete.type()).isEqualTo("run-not-found");
    }

    @Test
    void publicFilesNeedNoCredentialsAndIgnoreWrongOnes() {
        for (String path : new String[] {"/", "/inbox.css", "/inbox.js", "/inbox/api.js", "/favicon.svg", "/openapi.json"}) {
            Answer r = ServletCall.send(api, "GET", path, Map.of("Authorization", "Bearer wrong", "Host", "localhost"), new byte[0]);
            assertThat(r.status()).as(path).isEqualTo(200);
        }
    }
}
