package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.store.SnapshotStore;
import dev.baton.store.jdbc.JdbcSnapshotStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.beans.factory.annotation.Value;

/**
 * The starter in a running application: the HTTP API and inbox under /baton in Spring MVC behind
 * Spring Security, the store on the application's DataSource, metrics and health under Actuator.
 * Subclasses choose the database. The tests are methods of this class, not {@code @Nested} classes: Spring's
 * TestContext takes a nested class's configuration from the class that declares it (this abstract one, without the
 * subclass's database), so each nested class cost an application of its own on the default embedded database whose
 * beans no test used (the tests read the enclosing instance's fields).
 */
@SpringBootTest(classes = WebTestApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "test.agent-id=concierge-${random.uuid}",
        "baton.http.enabled=true",
        "baton.metrics.suspended-runs-refresh=1h",
        "management.endpoints.web.exposure.include=health,metrics",
        "management.endpoint.health.show-details=always"})
abstract class AbstractWebTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @Value("${local.server.port}")
    int port;

    @Autowired
    Agent agent;

    @Autowired
    SnapshotStore store;

    @Autowired
    MeterRegistry meters;

    @Autowired
    BatonRunGauges gauges;

    /** What the store's describe() names, e.g. "PostgreSQL". */
    abstract String database();

    HttpResponse<String> send(String user, String method, String path, String body, String accept) throws Exception {
        return send(user, method, path, body, accept, java.util.Map.of());
    }

    HttpResponse<String> send(String user, String method, String path, String body, String accept,
                              java.util.Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Accept", accept);
        if (body != null) b.header("Content-Type", "application/json");
        headers.forEach(b::header);
        if (user != null) {
            String basic = Base64.getEncoder().encodeToString((user + ":" + WebTestApp.PASSWORD).getBytes(StandardCharsets.UTF_8));
            b.header("Authorization", "Basic " + basic);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode getJson(String user, String path) throws Exception {
        HttpResponse<String> r = send(user, "GET", path, null, "application/json");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    String runs() {
        return "/baton/agents/" + agent.id() + "/suspended-runs";
    }

    String action(String runId, String what) {
        return "/baton/agents/" + agent.id() + "/runs/" + runId + "/" + what;
    }

    double resumeCount(String action, String outcome) {
        var t = meters.find("baton.resume").tags("agent", agent.id(), "action", action, "outcome", outcome).timer();
        return t == null ? 0 : t.count();
    }

    @Autowired
    org.springframework.context.ApplicationContext context;

    @Test
    void theApplicationKeepsItsOwnJson_Jackson3OnSpringBoot4() {
        String mapper = BootLine.BOOT4 ? "tools.jackson.databind.json.JsonMapper" : "com.fasterxml.jackson.databind.ObjectMapper";
        assertThat(context.getBeanNamesForType(BootLine.load(mapper))).as("the application's JSON mapper on Spring Boot %s",
                BootLine.version()).hasSize(1);
    }

    @Test
    void theStoreIsBuiltOnTheApplicationsDataSource() {
        assertThat(store).isInstanceOf(JdbcSnapshotStore.class);
        assertThat(store.describe()).contains(database());
    }

    // the inbox page and who is signed in
    @Test
    void theBasePathRedirectsToThePageWhichIsServed() throws Exception {
        HttpResponse<String> redirect = send(WebTestApp.OPS, "GET", "/baton", null, "text/html");
        assertThat(redirect.statusCode()).isEqualTo(308);
        assertThat(redirect.headers().firstValue("Location")).hasValue("/baton/");
        HttpResponse<String> page = send(WebTestApp.OPS, "GET", "/baton/", null, "text/html");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(page.body()).contains("inbox.js");
    }

    @Test
    void withoutCredentialsSpringSecurityAnswers401() throws Exception {
        assertThat(send(null, "GET", "/baton/me", null, "application/json").statusCode()).isEqualTo(401);
    }

    @Test
    void thePrincipalComesFromSpringSecurity() throws Exception {
        assertThat(getJson(WebTestApp.OPS, "/baton/me").path("name").asText()).isEqualTo("ops");
        JsonNode alice = getJson("alice", "/baton/me");
        assertThat(alice.path("name").asText()).isEqualTo("alice");
        assertThat(alice.path("resourceIds").toString()).isEqualTo("[\"alice\"]");
    }

    // listing and deciding runs through the API under /baton
    @Test
    void eachUserListsTheRunsTheyMaySee() throws Exception {
        AgentResult alices = TestAgents.suspendedRun(agent, "alice");
        AgentResult bobs = TestAgents.suspendedRun(agent, "bob");

        JsonNode forOps = getJson(WebTestApp.OPS, runs());
        assertThat(forOps.path("runs").findValuesAsText("runId")).contains(alices.runId(), bobs.runId());
        JsonNode forAlice = getJson("alice", runs());
        assertThat(forAlice.path("runs").findValuesAsText("runId")).contains(alices.runId()).doesNotContain(bobs.runId());
        assertThat(forAlice.path("runs").get(0).path("toolCalls").get(0).path("toolName").asText()).isEqualTo("bookFlight");
    }

    @Test
    void approvingStreamsTheRunsEventsAndIsCountedInTheMetrics() throws Exception {
        AgentResult run = TestAgents.suspendedRun(agent, "alice");
        String call = run.waitingCalls().get(0).toolCallId();
        double before = resumeCount("approve", "completed");

        HttpResponse<String> stream = send("alice", "POST", action(run.runId(), "approve"),
                "{\"toolCallId\":\"" + call + "\"}", "text/event-stream");
        assertThat(stream.statusCode()).as(stream.body()).isEqualTo(200);
        assertThat(stream.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        assertThat(stream.body()).contains("event: tool-result", "\"booked\":\"Lisbon\"", "event: outcome", "\"outcome\":\"COMPLETED\"");
        assertThat(getJson(WebTestApp.OPS, runs()).path("runs").findValuesAsText("runId")).doesNotContain(run.runId());

        assertThat(resumeCount("approve", "completed")).isEqualTo(before + 1);
        JsonNode metric = getJson(null, "/actuator/metrics/baton.resume?tag=agent:" + agent.id() + "&tag=action:approve");
        assertThat(metric.path("measurements").get(0).path("statistic").asText()).isEqualTo("COUNT");
        assertThat(metric.path("measurements").get(0).path("value").asDouble()).isGreaterThanOrEqualTo(1);
        assertThat(getJson(null, "/actuator/metrics/baton.tool.executions?tag=tool:bookFlight").path("measurements").get(0)
                .path("value").asDouble()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void anEditedApprovalIsRecordedWithTheSpringSecurityUserAsItsActor() throws Exception {
        AgentResult run = TestAgents.suspendedRun(agent, "alice");
        var call = run.waitingCalls().get(0);
        String body = "{\"toolCallId\":\"" + call.toolCallId() + "\",\"args\":{\"to\":\"Porto\"},\"digest\":\""
                + call.digest() + "\"}";
        var key = java.util.Map.of("Idempotency-Key", "k-" + run.runId());
        HttpResponse<String> r = send("alice", "POST", action(run.runId(), "approve"), body, "application/json", key);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("\"tool-call-approved\"", "\"booked\":\"Porto\"", "\"outcome\":\"COMPLETED\"");

        // sent again with its key (a client retrying after a timeout): the first outcome, nothing runs twice
        HttpResponse<String> retry = send("alice", "POST", action(run.runId(), "approve"), body, "application/json", key);
        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(200);
        assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");

        String trail = "/baton/agents/" + agent.id() + "/decisions?runId=" + run.runId();
        JsonNode decisions = getJson("alice", trail).path("decisions");
        assertThat(decisions).hasSize(1);
        assertThat(decisions.get(0).path("actor").asText()).as("Spring Security's user").isEqualTo("alice");
        assertThat(decisions.get(0).path("kind").asText()).isEqualTo("edit");
        assertThat(getJson("bob", trail).path("decisions")).as("bob sees only his resources' decisions").isEmpty();
        assertThat(getJson(WebTestApp.OPS, trail).path("decisions")).hasSize(1);
    }

    @Test
    void anotherUsersRunAnswersLikeAMissingOne() throws Exception {
        AgentResult bobs = TestAgents.suspendedRun(agent, "bob");
        String call = bobs.waitingCalls().get(0).toolCallId();
        HttpResponse<String> r = send("alice", "POST", action(bobs.runId(), "approve"), "{\"toolCallId\":\"" + call + "\"}",
                "application/json");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).contains("urn:baton:problem:run-not-found");
    }

    @Test
    void whatTomcatRefusesItselfUnderTheBasePathIsABatonProblemDocument() throws Exception {
        String close = " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        // TRACE: Tomcat refuses it before any servlet runs, and Spring Boot's error page (/error) would answer it
        for (String target : new String[] {"GET /baton/agents/concierge/suspended-runs%zz" + close, "GET /baton/agents/x%00" + close,
                "GET /baton/agents/" + "x".repeat(10_000) + close, "TRACE /baton/agents" + close, "GET /baton/agents\r\n\r\n"}) {
            String answer;
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(target.getBytes(StandardCharsets.US_ASCII));
                answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            }
            String head = answer.substring(0, Math.max(0, answer.indexOf("\r\n\r\n"))).toLowerCase(java.util.Locale.ROOT);
            assertThat(answer).as(target).matches("(?s)HTTP/1\\.1 (4|505).*").contains("\"type\":\"urn:baton:problem:").doesNotContain("<html");
            assertThat(head).contains("content-type: application/problem+json").contains("x-content-type-options: nosniff");
        }
    }

    @Test
    void anIdHoldingAnEncodedSlashReachesTheApi() throws Exception {
        HttpResponse<String> r = send(WebTestApp.OPS, "POST", action("no%2Fsuch-run", "approve"), "{\"toolCallId\":\"c\"}",
                "application/json");
        assertThat(r.statusCode()).as(r.headers() + " " + r.body()).isEqualTo(404);
        assertThat(r.body()).contains("urn:baton:problem:run-not-found").contains("no/such-run");
    }

    @Test
    void theSuspendedRunsGaugeIsReadFromItsLastCount() throws Exception {
        TestAgents.suspendedRun(agent, "carol");
        gauges.refresh();
        double stored = agent.countRuns().get(dev.baton.store.RunStatus.SUSPENDED);
        JsonNode gauge = getJson(null, "/actuator/metrics/baton.runs.suspended?tag=agent:" + agent.id());
        assertThat(gauge.path("measurements").get(0).path("value").asDouble()).isEqualTo(stored);
    }

    // the API's own checks of where a request comes from, under Spring MVC (CSRF is off for /baton/** in this app)
    /** One request over a plain socket, so Host, Origin and a missing Content-Type are sent exactly as written. */
    int raw(String head, String body) throws Exception {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            String basic = Base64.getEncoder().encodeToString(("alice:" + WebTestApp.PASSWORD).getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().write((head + "\r\nAuthorization: Basic " + basic + "\r\nContent-Length: " + b.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().write(b);
            String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    @Test
    void noTypeAnotherOriginOrAnotherHostChangesNothing() throws Exception {
        AgentResult run = TestAgents.suspendedRun(agent, "alice");
        String approve = "{\"toolCallId\":\"" + run.waitingCalls().get(0).toolCallId() + "\"}";
        String post = "POST " + action(run.runId(), "approve") + " HTTP/1.1\r\n";
        assertThat(raw(post + "Host: 127.0.0.1:" + port, approve)).as("no Content-Type").isEqualTo(415);
        assertThat(raw(post + "Host: 127.0.0.1:" + port + "\r\nContent-Type: text/plain", approve)).isEqualTo(415);
        assertThat(raw(post + "Host: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\nOrigin: http://attacker.example",
                approve)).isEqualTo(403);
        assertThat(raw(post + "Host: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\nSec-Fetch-Site: same-site",
                approve)).isEqualTo(403);
        assertThat(raw(post + "Host: attacker.example:" + port + "\r\nContent-Type: application/json", approve))
                .as("DNS rebinding").isEqualTo(421);
        assertThat(raw("GET " + runs() + " HTTP/1.1\r\nHost: attacker.example", "")).isEqualTo(421);
        assertThat(store.find(run.runId())).as("still suspended").isPresent();
        assertThat(getJson("alice", runs()).path("runs").findValuesAsText("runId")).contains(run.runId());
    }

    @Test
    void theStoreIsHealthy() throws Exception {
        JsonNode health = getJson(null, "/actuator/health/batonStore");
        assertThat(health.path("status").asText()).isEqualTo("UP");
        assertThat(health.path("details").path("store").asText()).contains(database());
    }
}
