package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Ids;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No problem the API answers carries a connection URL, credentials, SQL or a stack trace, over real
 * JDBC stores (SQLite always; PostgreSQL when {@code BATON_TEST_POSTGRES_URL} is set): over-long ids,
 * NUL bytes and control characters in ids and query parameters (400 naming the field and the limit,
 * never 503), bad cursors, dates, bodies and types.
 */
class ProblemLeakTest {
    static final Pattern LEAK = Pattern.compile("(?i)jdbc:|postgres(ql)?://|mariadb://|redis://|mongodb://|password|passwd|"
            + "user=|SELECT |INSERT |UPDATE |DELETE FROM|\\bat dev\\.baton|\\bat java\\.|Exception:|Exception\\b|SQLState|127\\.0\\.0\\.1:5432");

    static List<String> stores() {
        List<String> urls = new ArrayList<>();
        urls.add("jdbc:sqlite:" + Path.of("target", "leak-" + UUID.randomUUID() + ".db").toAbsolutePath());
        String pg = System.getenv("BATON_TEST_POSTGRES_URL");
        if (pg != null && !pg.isBlank()) urls.add(pg);
        return urls;
    }

    @ParameterizedTest
    @MethodSource("stores")
    void noProblemCarriesAConnectionUrlCredentialsSqlOrAStackTrace(String url) {
        String longId = "x".repeat(Ids.MAX_BYTES + 1);
        String agent = "/agents/concierge";
        try (SnapshotStore store = SnapshotStores.open(url);
             TestServer t = new TestServer(store, BatonHttpApi.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(30))) {
            ApiClient admin = t.admin();
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            List<ApiClient.Response> answers = new ArrayList<>();
            // ids over the limit, and with NUL or control characters, in the body, the path and the query
            answers.add(expect400(admin.post(agent + "/runs", "{\"prompt\":\"Book a flight\",\"resourceId\":\"" + longId + "\"}"),
                    "resourceId"));
            answers.add(expect400(admin.post(agent + "/runs", "{\"prompt\":\"Book a flight\",\"threadId\":\"" + longId + "\"}"),
                    "threadId"));
            answers.add(expect400(admin.post(agent + "/runs", "{\"prompt\":\"Book a flight\",\"resourceId\":\"a\\u0000b\"}"),
                    "resourceId"));
            answers.add(expect400(admin.post(agent + "/runs/" + longId + "/approve", "{\"toolCallId\":\"c\"}"), "runId"));
            // NUL in a path is refused by the web server itself (Jetty's parser, Tomcat too): a problem document all the same
            answers.add(expectContainer400(admin.post(agent + "/runs/a%00b/approve", "{\"toolCallId\":\"c\"}")));
            answers.add(expect400(admin.post(agent + "/runs/" + run + "/approve", "{\"toolCallId\":\"c\\u0000\"}"), "toolCallId"));
            answers.add(expect400(admin.post(agent + "/runs/a%0Ab/cancel", "{}"), "runId"));
            answers.add(expectContainer400(admin.send("DELETE", agent + "/runs/a%00b", null, null)));
            answers.add(expect400(admin.get(agent + "/suspended-runs?resourceId=a%00b"), "resourceId"));
            answers.add(expect400(admin.get(agent + "/suspended-runs?threadId=" + longId), "threadId"));
            answers.add(expect400(admin.get(agent + "/suspended-runs?threadId=%1B"), "threadId"));
            // other bad input
            answers.add(admin.get(agent + "/suspended-runs?cursor=not-a-cursor"));
            answers.add(admin.get(agent + "/suspended-runs?fromDate=yesterday"));
            answers.add(admin.post(agent + "/runs", "{\"prompt\":"));
            answers.add(admin.get("/agents/no-such-agent/suspended-runs"));
            answers.add(admin.post(agent + "/runs/no-such-run/approve", "{\"toolCallId\":\"c\"}"));
            for (ApiClient.Response r : answers) {
                assertThat(r.status()).as(r.body()).isBetween(400, 499);
                assertThat(LEAK.matcher(r.body()).find()).as("leak in %s", r.body()).isFalse();
            }
            assertThat(store.find(run)).as("the run is still there").isPresent();
        }
    }

    /**
     * Rule S10 over HTTP: NUL in free text (a decline's or a cancel's reason, the audit trail's actor
     * filter) is a 400 naming the field, never a 503, and the run stays as it was; on PostgreSQL, whose
     * text refuses NUL, too.
     */
    @ParameterizedTest
    @MethodSource("stores")
    void freeTextHoldingNulIsA400NamingTheFieldNeverA503(String url) {
        String agent = "/agents/concierge";
        try (SnapshotStore store = SnapshotStores.open(url);
             TestServer t = new TestServer(store, BatonHttpApi.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(30))) {
            ApiClient admin = t.admin();
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            String call = t.concierge.listSuspendedRuns().runs().get(0).toolCalls().get(0).toolCallId();
            var before = store.find(run).orElseThrow();
            List<ApiClient.Response> answers = List.of(
                    admin.post(agent + "/runs/" + run + "/decline", "{\"toolCallId\":\"" + call + "\",\"reason\":\"no\\u0000way\"}"),
                    admin.post(agent + "/runs/" + run + "/approve", "{\"toolCallId\":\"" + call + "\",\"reason\":\"\\u0000\"}"),
                    admin.post(agent + "/runs/" + run + "/cancel", "{\"reason\":\"stop\\u0000\"}"),
                    admin.get(agent + "/decisions?actor=a%00b"));
            List<String> fields = List.of("reason", "reason", "reason", "actor");
            for (int i = 0; i < answers.size(); i++) {
                ApiClient.Response r = answers.get(i);
                assertThat(r.status()).as("rule S10: NUL in %s: %s", fields.get(i), r.body()).isEqualTo(400);
                assertThat(r.body()).as("rule S10: the field named").contains("\"option\":\"" + fields.get(i) + "\"");
                assertThat(LEAK.matcher(r.body()).find()).as("leak in %s", r.body()).isFalse();
            }
            assertThat(store.find(run)).as("rule S10: the run after refused free text").contains(before);
        }
    }

    static ApiClient.Response expectContainer400(ApiClient.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.headers().get("content-type")).as(r.body()).containsExactly("application/problem+json");
        assertThat(r.body()).contains("\"type\":\"urn:baton:problem:");
        return r;
    }

    /**
     * A run the store stops part-way (its table renamed under a running server, as in the trial) reads
     * the same in every channel a client has: its category and an incident id, never the store's
     * message with its URL, path or SQL; the drained JSON, the stream's {@code error} event and its
     * {@code outcome} event. The event and the outcome of one run name one incident.
     */
    @org.junit.jupiter.api.Test
    void aRunTheStoreStoppedShowsItsCategoryAndAnIncidentInEveryChannel() throws Exception {
        String url = "jdbc:sqlite:" + Path.of("target", "leak-" + UUID.randomUUID() + ".db").toAbsolutePath();
        String agent = "/agents/concierge";
        try (SnapshotStore store = SnapshotStores.open(url);
             TestServer t = new TestServer(store, BatonHttpApi.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(30))) {
            ApiClient admin = t.admin();
            try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement st = c.createStatement()) {
                st.execute("alter table baton_runs rename to baton_runs_gone");
            }
            ApiClient.Response json = admin.postForJson(agent + "/runs", "{\"prompt\":\"Book a flight to Rome\",\"resourceId\":\"alice\"}");
            assertThat(json.status()).as(json.body()).isEqualTo(200);
            assertThat(json.body()).contains("\"outcome\":\"FAILED\"", "the run store failed", "incident ");
            assertThat(LEAK.matcher(json.body()).find()).as("leak in %s", json.body()).isFalse();
            assertThat(json.body()).doesNotContain("baton_runs", "leak-", "SQLITE");

            ApiClient.Response sse = admin.post(agent + "/runs", "{\"prompt\":\"Book a flight to Rome\",\"resourceId\":\"alice\"}");
            assertThat(sse.status()).as(sse.body()).isEqualTo(200);
            assertThat(LEAK.matcher(sse.body()).find()).as("leak in %s", sse.body()).isFalse();
            assertThat(sse.body()).doesNotContain("baton_runs", "leak-", "SQLITE").contains("event: error", "event: outcome");
            java.util.regex.Matcher incidents = Pattern.compile("incident ([0-9a-f]{8})").matcher(sse.body());
            List<String> seen = new ArrayList<>();
            while (incidents.find()) seen.add(incidents.group(1));
            assertThat(seen).as("the error event and the outcome name one incident: %s", sse.body()).hasSize(2);
            assertThat(seen.get(0)).isEqualTo(seen.get(1));
        }
    }

    static ApiClient.Response expect400(ApiClient.Response r, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.body()).contains("\"option\":\"" + field + "\"").contains(Ids.LIMIT);
        return r;
    }
}
