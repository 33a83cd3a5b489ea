package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code openapi.json} against the router and against real responses. (Every response of every
 * other HTTP test is also checked against it, by {@link ApiClient}.)
 */
class OpenApiConformanceTest {
    final OpenApiDocument doc = OpenApiDocument.get();
    TestServer t;

    @BeforeEach
    void start() {
        t = new TestServer();
    }

    @AfterEach
    void stop() {
        t.close();
    }

    @Test
    void documentsExactlyTheRoutesTheServerHas() {
        Set<String> documented = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.root.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> p = paths.next();
            for (String method : List.of("get", "post", "put", "patch", "delete")) {
                if (p.getValue().has(method)) documented.add(method.toUpperCase(Locale.ROOT) + " " + p.getKey());
            }
        }
        assertThat(documented).containsExactlyInAnyOrderElementsOf(t.api.routes());
    }

    @Test
    void isOpenApi31WithEveryReferenceResolvedAndEverySchemaUsable() {
        assertThat(doc.root.path("openapi").asText()).isEqualTo("3.1.0");
        List<String> refs = new ArrayList<>();
        collectRefs(doc.root, refs);
        assertThat(refs).isNotEmpty();
        for (String ref : refs) {
            assertThat(ref).startsWith("#/components/");
            assertThat(doc.root.at(ref.substring(1)).isMissingNode()).as(ref).isFalse();
        }
        for (Iterator<String> names = doc.root.path("components").path("schemas").fieldNames(); names.hasNext(); ) {
            doc.errors(doc.component(names.next()), "{}");   // compiles
        }
        assertThat(doc.root.path("servers").get(0).path("url").asText()).as("relative to where it is served").isEqualTo(".");
    }

    @Test
    void theCheckHasTeeth() {
        assertThat(doc.errors(doc.component("SuspendedRunPage"), "{\"runs\":[],\"page\":0,\"perPage\":20}")).isNotEmpty();
        assertThat(doc.errors(doc.component("AgentEvent"), "{\"type\":\"tool-result\",\"runId\":\"r\"}")).isNotEmpty();
        assertThat(doc.errors(doc.component("AgentEvent"), "{\"type\":\"start\",\"runId\":\"r\",\"extra\":1}")).isNotEmpty();
        assertThat(doc.errors(doc.component("Problem"), "{\"type\":\"x\",\"title\":\"t\",\"status\":404,\"detail\":\"d\",\"trace\":\"at x\"}"))
                .as("no unknown members, such as a stack trace").isNotEmpty();
        assertThat(doc.errors(doc.component("StreamOutcome"),
                "{\"runId\":\"r\",\"outcome\":\"DONE\",\"text\":\"\",\"waitingCalls\":[],\"error\":null}")).isNotEmpty();
        assertThat(doc.errors(doc.component("StreamOutcome"),
                "{\"runId\":\"r\",\"outcome\":\"CANCELLED\",\"text\":\"\",\"waitingCalls\":[],\"error\":null}")).isEmpty();
        assertThat(doc.errors(doc.component("AgentEvent"), "{\"type\":\"cancelled\",\"runId\":\"r\"}"))
                .as("a cancelled event names its reason").isNotEmpty();
        assertThat(doc.errors(doc.component("SuspendedRun"), "{\"runId\":\"r\",\"status\":\"SUSPENDED\",\"threadId\":null,"
                + "\"resourceId\":null,\"suspendedAt\":\"2026-06-01T09:00:00Z\",\"toolCalls\":[]}"))
                .as("createdAt, expiresAt, interrupted, interruption and parentRunId are required").isNotEmpty();
        assertThat(doc.errors(doc.component("SuspendedRunPage"), "{\"runs\":[],\"total\":0,\"page\":null,\"perPage\":20,"
                + "\"nextCursor\":null,\"asOf\":\"2026-06-01T09:00:00Z\"}")).isEmpty();
    }

    @Test
    void theRequestBodiesTheInboxSendsMatchTheRequestSchemas() {
        assertThat(doc.errors(doc.component("StartRunRequest"), "{\"prompt\":\"p\",\"threadId\":\"t\",\"resourceId\":\"r\"}")).isEmpty();
        assertThat(doc.errors(doc.component("ApproveRequest"), "{\"toolCallId\":\"call_1_0\"}")).isEmpty();
        assertThat(doc.errors(doc.component("DeclineRequest"), "{\"toolCallId\":\"call_1_0\",\"reason\":\"no\"}")).isEmpty();
        assertThat(doc.errors(doc.component("ResumeRequest"), "{\"toolCallId\":\"c\",\"resumeData\":{\"a\":1}}")).isEmpty();
        assertThat(doc.errors(doc.component("ResumeRequest"), "{\"resumeData\":null}")).isEmpty();
        assertThat(doc.errors(doc.component("ApproveRequest"), "{}")).isNotEmpty();
        assertThat(doc.errors(doc.component("ApproveRequest"), "{\"toolCallId\":\"c\",\"args\":{\"to\":\"Porto\"},\"digest\":\""
                + "a".repeat(64) + "\",\"reason\":\"r\"}")).isEmpty();
        assertThat(doc.errors(doc.component("ApproveRequest"), "{\"toolCallId\":\"c\",\"args\":[1]}")).isNotEmpty();
        assertThat(doc.errors(doc.component("DeclineRequest"), "{\"toolCallId\":\"c\",\"digest\":\"" + "a".repeat(64) + "\"}")).isEmpty();
        assertThat(doc.errors(doc.component("CancelRequest"), "{\"reason\":\"Trip called off\"}")).isEmpty();
        assertThat(doc.errors(doc.component("CancelRequest"), "{}")).isEmpty();
        assertThat(doc.errors(doc.component("ContinueRequest"), "{}")).isEmpty();
        assertThat(doc.errors(doc.component("ContinueRequest"), "{\"force\":true}")).isNotEmpty();
    }

    /** Each operation answered for real, each answer checked against its documented schema. */
    @Test
    void everyOperationAnswersAsDocumented() {
        ApiClient admin = t.admin();
        Set<String> seen = new LinkedHashSet<>();
        String approval = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Lisbon");
        String refund = t.suspend(t.concierge, "2026-06-02T09:00:00Z", "bob", "b", "Refund 250 EUR");
        String data = t.suspend(t.concierge, "2026-06-03T09:00:00Z", "dave", "d", "Take my passport number");
        String data2 = t.suspend(t.concierge, "2026-06-03T10:00:00Z", "dave", "d", "Take my passport number");
        String approval2 = t.suspend(t.concierge, "2026-06-04T09:00:00Z", "alice", "a", "Book a flight to Rome");
        String toCancel = t.suspend(t.concierge, "2026-06-05T09:00:00Z", "carol", "c", "Book a flight to Oslo");
        String toCancel2 = t.suspend(t.concierge, "2026-06-05T10:00:00Z", "carol", "c", "Refund 300 EUR");
        String toDiscard = t.suspend(t.concierge, "2026-06-05T11:00:00Z", "carol", "c", "Take my passport number");
        String interrupted = t.suspend(t.concierge, "2026-06-06T09:00:00Z", "erin", "e", "Book a flight to Lima");
        String interrupted2 = t.suspend(t.concierge, "2026-06-06T10:00:00Z", "erin", "e", "Book a flight to Quito");
        for (String run : List.of(interrupted, interrupted2)) {
            t.flaky.failNext(1);
            assertThat(t.concierge.approveToolCall(run, "call_1_0").result().outcome()).isEqualTo(dev.baton.agent.RunOutcome.INTERRUPTED);
        }

        record Call(String method, String path, int status, ApiClient.Response response) {
        }
        List<Call> calls = new ArrayList<>();
        java.util.function.BiConsumer<String, ApiClient.Response> get = (path, r) -> calls.add(new Call("GET", path, r.status(), r));
        for (String path : List.of("/", "/inbox.css", "/inbox.js", "/inbox/api.js", "/inbox/nope.js", "/favicon.svg", "/openapi.json", "/me", "/agents",
                "/agents/concierge/suspended-runs", "/agents/concierge/suspended-runs?resourceId=dave&perPage=1&page=1",
                "/agents/concierge/suspended-runs?perPage=x", "/agents/nobody/suspended-runs")) {
            get.accept(path, admin.get(path));
        }
        String cursor = admin.get("/agents/concierge/suspended-runs?perPage=2").json().get("nextCursor").asText();
        get.accept("/agents/concierge/suspended-runs?perPage=2&cursor=" + cursor,
                admin.get("/agents/concierge/suspended-runs?perPage=2&cursor=" + cursor));
        get.accept("/agents", t.client(null).get("/agents"));
        // the memory store of this server may or may not keep decisions: 200 or 501, each as documented
        get.accept("/agents/concierge/decisions", admin.get("/agents/concierge/decisions?perPage=5"));
        String r = "/agents/concierge/runs/";
        List<Object[]> posts = List.of(
                new Object[] {"/agents/concierge/runs", "{\"prompt\":\"Book a flight to Oslo\",\"threadId\":\"o\"}", false},
                new Object[] {"/agents/concierge/runs", "{\"prompt\":\"Refund 30 EUR\"}", true},
                new Object[] {"/agents/concierge/runs", "{\"prompt\":\"x\",\"resourceId\":\"bob\"}", false},
                new Object[] {r + approval + "/approve", "{\"toolCallId\":\"call_1_0\"}", false},
                new Object[] {r + approval2 + "/approve", "{\"toolCallId\":\"call_1_0\"}", true},
                new Object[] {r + approval + "/approve", "{\"toolCallId\":\"call_1_0\"}", false},
                new Object[] {r + refund + "/decline", "{\"toolCallId\":\"call_1_0\",\"reason\":\"no\"}", false},
                new Object[] {r + data + "/decline", "{\"toolCallId\":\"call_1_0\"}", false},
                new Object[] {r + data + "/resume", "{\"resumeData\":{\"passportNumber\":\"X1234567\"}}", false},
                new Object[] {r + data2 + "/resume", "{\"toolCallId\":\"call_1_0\",\"resumeData\":{\"passportNumber\":\"X7\"}}", true},
                new Object[] {r + data + "/resume", "{\"resumeData\":1,\"extra\":2}", false},
                new Object[] {r + data + "/resume", "{not json", false},
                new Object[] {r + interrupted + "/continue", "", false},
                new Object[] {r + interrupted2 + "/continue", "{}", true},
                new Object[] {r + toDiscard + "/continue", "{}", false},
                new Object[] {r + approval2 + "/continue", "{}", false},
                new Object[] {r + toCancel + "/cancel", "{\"reason\":\"Trip called off\"}", false},
                new Object[] {r + toCancel2 + "/cancel", "{}", true},
                new Object[] {r + toCancel + "/cancel", "{}", false},
                new Object[] {r + toCancel2 + "/cancel", "{\"reason\":7}", false},
                // runs that never were: 404 (a decided one answers 409 already-decided, above)
                new Object[] {r + "never-was/approve", "{\"toolCallId\":\"call_1_0\"}", false},
                new Object[] {r + "never-was/continue", "{}", false},
                new Object[] {r + "never-was/cancel", "{}", false});
        for (Object[] p : posts) {
            String path = (String) p[0];
            ApiClient client = path.endsWith("/runs") && ((String) p[1]).contains("bob") ? t.client(TestServer.ALICE) : admin;
            ApiClient.Response response = (boolean) p[2] ? client.postForJson(path, (String) p[1]) : client.post(path, (String) p[1]);
            calls.add(new Call("POST", path, response.status(), response));
        }
        for (String run : List.of(toDiscard, toDiscard, "never-was")) {
            ApiClient.Response response = admin.delete(r + run);
            calls.add(new Call("DELETE", r + run, response.status(), response));
        }
        for (Call c : calls) {
            String template = doc.template(c.path().contains("?") ? c.path().substring(0, c.path().indexOf('?')) : c.path());
            String type = c.response().contentType() == null ? "-" : c.response().contentType().split(";")[0];
            seen.add(c.method() + " " + template + " " + c.status() + " " + type);
        }
        assertThat(seen).contains(
                "GET / 200 text/html", "GET /inbox/{file} 200 text/javascript", "GET /inbox/{file} 404 application/problem+json",
                "GET /favicon.svg 200 image/svg+xml",
                "GET /openapi.json 200 application/json", "GET /me 200 application/json",
                "GET /agents 200 application/json", "GET /agents 401 application/problem+json",
                "GET /agents/{agentId}/suspended-runs 200 application/json",
                "GET /agents/{agentId}/suspended-runs 400 application/problem+json",
                "GET /agents/{agentId}/suspended-runs 404 application/problem+json",
                "POST /agents/{agentId}/runs 200 text/event-stream", "POST /agents/{agentId}/runs 200 application/json",
                "POST /agents/{agentId}/runs 403 application/problem+json",
                "POST /agents/{agentId}/runs/{runId}/approve 200 text/event-stream",
                "POST /agents/{agentId}/runs/{runId}/approve 200 application/json",
                "POST /agents/{agentId}/runs/{runId}/approve 404 application/problem+json",
                "POST /agents/{agentId}/runs/{runId}/decline 200 text/event-stream",
                "POST /agents/{agentId}/runs/{runId}/decline 422 application/problem+json",
                "POST /agents/{agentId}/runs/{runId}/resume 200 text/event-stream",
                "POST /agents/{agentId}/runs/{runId}/resume 200 application/json",
                "POST /agents/{agentId}/runs/{runId}/resume 400 application/problem+json",
                "POST /agents/{agentId}/runs/{runId}/continue 200 text/event-stream",
                "POST /agents/{agentId}/runs/{runId}/continue 200 application/json",
                "POST /agents/{agentId}/runs/{runId}/continue 422 application/problem+json",
                "POST /agents/{agentId}/runs/{runId}/continue 404 application/problem+json",
                "POST /agents/{agentId}/runs/{runId}/cancel 200 text/event-stream",
                "POST /agents/{agentId}/runs/{runId}/cancel 200 application/json",
                "POST /agents/{agentId}/runs/{runId}/cancel 404 application/problem+json",
                "POST /agents/{agentId}/runs/{runId}/cancel 400 application/problem+json",
                "DELETE /agents/{agentId}/runs/{runId} 204 -",
                "DELETE /agents/{agentId}/runs/{runId} 404 application/problem+json");
        Set<String> operations = new TreeSet<>();
        for (String s : seen) operations.add(s.substring(0, s.indexOf(' ', s.indexOf(' ') + 1)));
        assertThat(operations).containsExactlyInAnyOrderElementsOf(t.api.routes());
    }

    private static void collectRefs(JsonNode node, List<String> out) {
        if (node.isObject()) {
            if (node.has("$ref")) out.add(node.get("$ref").asText());
            node.elements().forEachRemaining(n -> collectRefs(n, out));
        } else if (node.isArray()) {
            node.elements().forEachRemaining(n -> collectRefs(n, out));
        }
    }
}
