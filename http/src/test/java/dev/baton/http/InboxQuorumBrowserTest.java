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
 * A call that needs two approvals shows "1 of 2 approvals: john" once john approved, and maria's approval
 * in the inbox (her token's roles admit her) completes it. Real headless Chromium over the in-memory store.
 */
class InboxQuorumBrowserTest {
    static final String MARIA = "maria-travel-token-0123456";
    static final String JOHN = "john-travel-token-01234567";

    SnapshotStore store;
    Agent desk;
    HttpTarget.Served server;
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
        BatonHttpApi api = BatonHttpApi.builder()
                .agents(desk)
                .authenticator(Authenticator.bearerTokens()
                        .token(MARIA, Principal.builder().name("maria").roles(List.of("travel")).build())
                        .token(JOHN, Principal.builder().name("john").roles(List.of("travel")).build()).build())
                .build();
        server = HttpTarget.serve(api);

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
    void aCallThatNeedsTwoApprovalsShowsWhoApprovedSoFarAndTheSecondApprovalCompletesIt() {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        browser.get(server.uri() + "#token=" + MARIA);
        wait.until(d -> runs().size() == 1);
        WebElement card = runs().get(0);
        assertThat(card.findElement(By.cssSelector(".call p.approvals")).getText()).isEqualTo("1 of 2 approvals: john");
        card.findElement(By.cssSelector("button.approve")).click();
        wait.until(d -> runs().isEmpty());
        assertThat(desk.listSuspendedRuns().total()).isZero();
    }

    /** john approved already: his card has no Approve, says why, and still offers Edit and Decline (the listing's youMay). */
    @Test
    void anApproverWhoApprovedSeesTheCardWithoutApproveAndWhy() {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        browser.get(server.uri() + "#token=" + JOHN);
        wait.until(d -> runs().size() == 1);
        WebElement card = runs().get(0);
        assertThat(card.findElement(By.cssSelector(".call p.why-not")).getText())
                .isEqualTo("You may not approve: you approved; waiting for 1 more");
        assertThat(card.findElements(By.cssSelector("button.approve:not(.approve-edited)"))).as("the editor's own button approves an edit, which he may").isEmpty();
        assertThat(card.findElements(By.cssSelector("button.edit"))).hasSize(1);
        assertThat(card.findElements(By.cssSelector("button.decline"))).hasSize(1);
    }
}
