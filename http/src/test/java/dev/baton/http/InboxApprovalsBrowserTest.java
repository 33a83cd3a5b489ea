package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.RunOptions;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Edit then approve, and the History view, in real headless Chromium over a server on the in-memory
 * store (it keeps decisions): the person edits the JSON arguments (invalid JSON is refused in
 * the page), approves, and the tool runs with the edit; the History lists who decided what, newest
 * first, and filters by who. Screenshots go to {@code target/} ({@code approvals-edit.png},
 * {@code approvals-history.png}: docs/approvals.md shows them).
 */
class InboxApprovalsBrowserTest {
    static final String MARIA = "maria-token-0123456789";

    SnapshotStore store;
    TestAgents.MutableClock clock;
    Agent concierge;
    HttpTarget.Served server;
    ChromeDriver browser;
    WebDriverWait wait;

    @BeforeEach
    void start() throws Exception {
        Chromium.require();

        store = MemorySnapshotStore.create();
        clock = new TestAgents.MutableClock(Instant.parse("2026-06-01T09:00:00Z"));
        concierge = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, clock, m -> m).build();
        seed("2026-06-01T09:00:00Z", "alice", "alice-lisbon", "Book a flight to Lisbon");
        seed("2026-06-02T14:30:00Z", "bob", "bob-orders", "Refund 250 EUR for order A-1001");
        seed("2026-06-03T11:00:00Z", "carol", "carol-tokyo", "Book a flight to Tokyo");
        clock.set(Instant.parse("2026-06-04T10:00:00Z"));

        BatonHttpApi api = BatonHttpApi.builder()
                .agents(concierge)
                .authenticator(Authenticator.bearerTokens().token(MARIA, Principal.unrestricted("maria")).build())
                .build();
        server = HttpTarget.serve(api);

        browser = Chromium.page();
        browser.manage().window().setSize(new Dimension(1400, 1000));   // the screenshots docs/approvals.md shows
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    void seed(String at, String resource, String thread, String prompt) {
        clock.set(Instant.parse(at));
        concierge.generate(prompt, RunOptions.builder().resourceId(resource).threadId(thread).build());
    }

    @AfterEach
    void stop() {
        if (server != null) server.close();
        if (concierge != null) concierge.close();
        if (store != null) store.close();
    }

    List<WebElement> runs() {
        return browser.findElements(By.cssSelector("#run-list > li.run"));
    }

    void waitForRuns(int n) {
        wait.withMessage(() -> "expected " + n + " runs; page says: " + browser.findElement(By.id("status")).getText())
                .until(d -> runs().size() == n && !"true".equals(d.findElement(By.tagName("body")).getAttribute("aria-busy")));
    }

    WebElement run(String threadId) {
        return browser.findElement(By.cssSelector("#run-list > li.run[data-thread-id='" + threadId + "']"));
    }

    List<WebElement> actions() {
        return browser.findElements(By.cssSelector("#actions > li.action"));
    }

    String waitForOutcome(int actionsBefore, String outcome) {
        wait.until(d -> actions().size() == actionsBefore + 1 && "true".equals(actions().get(0).getAttribute("data-done")));
        WebElement newest = actions().get(0);
        assertThat(newest.findElements(By.cssSelector("li[data-outcome='" + outcome + "']"))).as(newest.getText()).hasSize(1);
        return newest.getText();
    }

    List<WebElement> historyRows() {
        return browser.findElements(By.cssSelector("#history-list > tr.decision"));
    }

    List<String> consoleErrors() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(e -> e.getMessage()).toList();
    }

    void screenshot(String name) throws Exception {
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        Files.copy(((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void editThenApproveRunsTheToolWithTheEditAndTheHistoryShowsWhoDecided() throws Exception {
        browser.get(server.uri() + "#token=" + MARIA);
        waitForRuns(3);
        WebElement carol = run("carol-tokyo");
        String digest = concierge.listSuspendedRuns().runs().get(0).toolCalls().get(0).digest();

        // Edit opens the arguments as JSON; invalid JSON is refused in the page, nothing is sent
        WebElement edit = carol.findElement(By.cssSelector("button.edit"));
        assertThat(edit.getAttribute("aria-expanded")).isEqualTo("false");
        edit.click();
        WebElement args = carol.findElement(By.cssSelector("textarea.edit-args"));
        wait.until(d -> args.isDisplayed());
        assertThat(edit.getAttribute("aria-expanded")).isEqualTo("true");
        assertThat(browser.switchTo().activeElement()).isEqualTo(args);
        assertThat(args.getAttribute("value")).contains("\"to\": \"Tokyo\"");
        args.sendKeys(Keys.chord(Keys.CONTROL, "a"), "{to: Osaka}");
        int before = actions().size();
        carol.findElement(By.cssSelector("button.approve-edited")).click();
        wait.until(d -> carol.findElement(By.cssSelector(".editor p.error")).getText().startsWith("Not valid JSON"));
        assertThat(args.getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(actions()).hasSize(before);
        assertThat(concierge.listSuspendedRuns().total()).isEqualTo(3);

        args.sendKeys(Keys.chord(Keys.CONTROL, "a"), "{\"to\": \"Osaka\"}");
        assertThat(carol.findElement(By.cssSelector(".digest")).getAttribute("title")).as("the digest shown").isEqualTo(digest);
        ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0); document.activeElement.blur();");
        assertThat(carol.findElement(By.cssSelector(".editor p.error")).getText()).as("cleared as the person types").isEmpty();
        screenshot("approvals-edit.png");

        // approve with the edit: the page sends the digest it showed; the tool runs with the edit
        carol.findElement(By.cssSelector("button.approve-edited")).click();
        String approved = waitForOutcome(before, "COMPLETED");
        assertThat(approved).contains("tool-call-approved", "bookFlight {\"to\":\"Osaka\"} approved by maria (proposed {\"to\":\"Tokyo\"})",
                "bookFlight → {\"booked\":\"Osaka\"");
        waitForRuns(2);
        DecisionRecord edited = concierge.listDecisions(AgentListDecisionsOptions.all()).items().get(0);
        assertThat(edited.kind()).isEqualTo(DecisionKind.EDIT);
        assertThat(edited.actor()).isEqualTo("maria");
        assertThat(edited.argsDigestBefore()).as("bound to what the page showed").isEqualTo(digest);

        // decline bob's refund with a reason; approve alice's flight as proposed
        clock.set(Instant.parse("2026-06-04T10:05:00Z"));
        before = actions().size();
        run("bob-orders").findElement(By.cssSelector("input.reason")).sendKeys("Already refunded at the till", Keys.ENTER);
        waitForOutcome(before, "COMPLETED");
        waitForRuns(1);
        clock.set(Instant.parse("2026-06-04T10:10:00Z"));
        before = actions().size();
        run("alice-lisbon").findElement(By.cssSelector("button.approve")).click();
        waitForOutcome(before, "COMPLETED");
        waitForRuns(0);

        // the History: newest first, who decided, what, why; the edit shows its two digests
        browser.findElement(By.id("view-history")).click();
        wait.until(d -> historyRows().size() == 3);
        assertThat(browser.findElement(By.id("view-history")).getAttribute("aria-pressed")).isEqualTo("true");
        assertThat(browser.findElement(By.id("inbox-view")).isDisplayed()).isFalse();
        assertThat(historyRows()).extracting(r -> r.getAttribute("data-kind")).containsExactly("approve", "decline", "edit");
        assertThat(historyRows()).extracting(r -> r.getAttribute("data-actor")).containsOnly("maria");
        assertThat(historyRows().get(1).getText()).contains("maria", "declined", "refund", "Already refunded at the till");
        WebElement edit0 = historyRows().get(2);
        assertThat(edit0.getText()).contains("approved with edits", "bookFlight", "carol");
        assertThat(edit0.findElements(By.cssSelector(".digest"))).hasSize(2);
        assertThat(edit0.findElement(By.cssSelector(".was .digest")).getAttribute("title")).isEqualTo(digest);
        assertThat(browser.findElement(By.id("history-summary")).getText()).isEqualTo("3 decisions shown, newest first.");
        screenshot("approvals-history.png");

        // filter by who decided
        browser.findElement(By.id("history-actor")).sendKeys("nobody", Keys.ENTER);
        wait.until(d -> browser.findElement(By.id("history-summary")).getText().equals("No decisions match."));
        assertThat(historyRows()).isEmpty();
        browser.findElement(By.id("history-clear")).click();
        wait.until(d -> historyRows().size() == 3);

        // back to the inbox
        browser.findElement(By.id("view-inbox")).click();
        assertThat(browser.findElement(By.id("history")).isDisplayed()).isFalse();
        assertThat(consoleErrors()).isEmpty();
    }
}
