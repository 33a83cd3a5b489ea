package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * An attacker's page on another origin (another port of 127.0.0.1), opened in headless Chromium,
 * against the most exposed set-up: {@link Authenticator#anonymous()} on loopback. It tries empty
 * and {@code text/plain} form posts (cancel, approve, continue), {@code navigator.sendBeacon},
 * {@code fetch} with {@code mode: 'no-cors'} (approve, and a new run), and a DNS-rebinding
 * {@code Host} (Chromium resolving {@code attacker.test} to 127.0.0.1). Nothing changes in the store.
 */
class CrossSiteBrowserTest {
    SnapshotStore store;
    Agent concierge;
    HttpTarget.Served victim;
    HttpServer attacker;
    ChromeDriver browser;

    @BeforeEach
    void start() throws Exception {
        Chromium.require();
        store = MemorySnapshotStore.create();
        concierge = TestAgents.concierge(TestAgents.CONCIERGE, store, new TestAgents.MutableClock(Instant.parse("2026-06-01T09:00:00Z")));
        BatonHttpApi api = BatonHttpApi.builder().agents(concierge).authenticator(Authenticator.anonymous()).build();
        victim = HttpTarget.serve(api);

        browser = Chromium.page();
    }

    @AfterEach
    void stop() {
        if (attacker != null) attacker.stop(0);
        if (victim != null) victim.close();
        if (store != null) store.close();
    }

    @Test
    void aPageOfAnotherOriginChangesNothing() throws Exception {
        AgentResult toCancel = concierge.generate("Book a flight to Lisbon", RunOptions.builder().resourceId("alice").build());
        AgentResult toApprove = concierge.generate("Book a flight to Tokyo", RunOptions.builder().resourceId("alice").build());
        assertThat(toCancel.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        String base = "http://127.0.0.1:" + victim.port() + "/agents/" + TestAgents.CONCIERGE + "/runs";
        String approveUrl = base + "/" + toApprove.runId() + "/approve";
        String approve = "{\"toolCallId\":\"" + toApprove.waitingCalls().get(0).toolCallId() + "\"}";
        String page = "<!doctype html><html><body>"
                + "<iframe name=sink1></iframe><iframe name=sink2></iframe><iframe name=sink3></iframe>"
                + "<form id=f1 method=post target=sink1 action='" + base + "/" + toCancel.runId() + "/cancel'></form>"
                + "<form id=f2 method=post target=sink2 enctype=text/plain action='" + approveUrl + "'>"
                + "<input name='" + approve.substring(0, approve.length() - 2).replace("'", "&#39;") + "' value='\"}'></form>"
                + "<form id=f3 method=post target=sink3 action='" + base + "/" + toCancel.runId() + "/continue'></form>"
                + "<script>\n"
                + "const sent = [];\n"
                + "document.getElementById('f1').submit(); document.getElementById('f2').submit(); document.getElementById('f3').submit();\n"
                + "sent.push('beacon:' + navigator.sendBeacon('" + approveUrl + "', new Blob([JSON.stringify(" + approve + ")])));\n"
                + "Promise.allSettled([\n"
                + "  fetch('" + approveUrl + "', {method: 'POST', mode: 'no-cors', body: new TextEncoder().encode(JSON.stringify("
                + approve + ")).buffer}),\n"
                + "  fetch('" + base + "', {method: 'POST', mode: 'no-cors', body: JSON.stringify({prompt: 'Book a flight to Rome'})}),\n"
                + "  fetch('" + base + "', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'},"
                + " body: JSON.stringify({prompt: 'Book a flight to Oslo'})}),\n"
                + "]).then(rs => { rs.forEach(r => sent.push('fetch:' + r.status)); "
                + "setTimeout(() => { document.title = 'done ' + sent.join(' '); }, 1500); });\n"
                + "</script></body></html>";
        attacker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        attacker.createContext("/", ex -> {
            byte[] b = page.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        attacker.start();

        browser.get("http://127.0.0.1:" + attacker.getAddress().getPort() + "/");
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> d.getTitle().startsWith("done"));
        assertThat(browser.getTitle()).as("the page sent everything").contains("beacon:true")
                .contains("fetch:fulfilled fetch:fulfilled fetch:fulfilled");

        // DNS rebinding: the browser reaches the server by the attacker's name
        browser.get("http://attacker.test:" + victim.port() + "/agents");
        assertThat(browser.getPageSource()).contains("misdirected-request").doesNotContain(toCancel.runId());

        assertThat(store.find(toCancel.runId())).as("not cancelled, not continued").isPresent();
        assertThat(store.find(toApprove.runId())).as("not approved").isPresent();
        assertThat(concierge.listSuspendedRuns().total()).as("no run created").isEqualTo(2);
        assertThat(store.find(toApprove.runId()).orElseThrow().version()).isEqualTo(1);
    }
}
