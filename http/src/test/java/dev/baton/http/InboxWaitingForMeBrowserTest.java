package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.Approver;
import dev.baton.agent.ApproverRule;
import dev.baton.agent.RunOptions;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The inbox's "Waiting for me" toggle lists only the runs the signed-in person may decide now: of carol's run
 * (john approved it, one more approval is needed) and maria's own (separation of duties), maria sees carol's.
 * Real headless Chromium over the in-memory store.
 */
class InboxWaitingForMeBrowserTest {
    static final String MARIA = "maria-travel-token-0123456";

    SnapshotStore store;
    Agent desk;
    BatonHttpServer server;
    ChromeDriver browser;

    @BeforeEach
    void start() throws Exception {
        Chromium.require();
        store = MemorySnapshotStore.create();
        desk = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, Clock.systemUTC(), m -> m)
                .approverRules(ApproverRule.builder("two travel approvers").tool("bookFlight").roles("travel").approvals(2).build())
                .build();
        String run = desk.generate("Book a flight to Rome", RunOptions.builder().resourceId("carol").threadId("carol-trip").startedBy("carol").build()).runId();
        String call = desk.listSuspendedRuns().runs().get(0).toolCalls().get(0).toolCallId();
        desk.approveToolCall(run, call, ApproveOptions.builder().approver(Approver.of("john", "travel")).build());
        desk.generate("Book a flight to Oslo", RunOptions.builder().resourceId("maria").threadId("maria-trip").startedBy("maria").build());
        BatonHttpApi api = BatonHttpApi.builder()
                .agents(desk)
                .authenticator(Authenticator.bearerTokens()
                        .token(MARIA, Principal.builder().name("maria").roles(List.of("travel")).build()).build())
                .build();
        server = BatonHttpServer.builder(api).port(0).start();

        browser = Chromium.page();
    }

    @AfterEach
    void stop() {
        if (server != null) server.close();
        if (desk != null) desk.close();
        if (store != null) store.close();
    }

    List<WebElement> runs() {
        return browser.findElements(By.cssSelector("#run-list > li.run"));
    }

    @Test
    void theWaitingForMeToggleListsOnlyTheRunsThePersonMayDecideNow() {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        browser.get(server.uri() + "#token=" + MARIA);
        wait.until(d -> runs().size() == 2);
        browser.findElement(By.id("waiting-for-me")).click();
        wait.until(d -> runs().size() == 1);
        assertThat(runs().get(0).getText()).contains("carol-trip").doesNotContain("maria-trip");
        browser.findElement(By.id("waiting-for-me")).click();
        wait.until(d -> runs().size() == 2);
    }
}
