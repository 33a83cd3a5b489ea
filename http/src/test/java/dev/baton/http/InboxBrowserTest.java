package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.RunOptions;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
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
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The inbox page in real headless Chromium (Debian's {@code chromium} and {@code chromium-driver},
 * which {@code .ci/run} installs), over a server on a SQLite file with seeded runs: filter, load
 * more by the cursor, approve one run, decline one with a reason, resume one with data (after the
 * page refused invalid JSON); creation and expiry times, cancel with a reason, an interrupted run
 * continued, another discarded after a confirmation; and watch the list update. Load more is in the
 * page only while runs are left; the page has its icon, and the console has no error. Screenshots go
 * to {@code target/}.
 */
class InboxBrowserTest {
    static final Instant NOW = Instant.parse("2026-06-06T10:00:00Z");

    @TempDir
    Path dir;

    SnapshotStore store;
    TestAgents.MutableClock clock;
    TestAgents.FlakyModel flaky;
    Agent concierge;
    HttpTarget.Served server;
    ChromeDriver browser;
    WebDriverWait wait;

    @BeforeEach
    void start() throws Exception {
        Chromium.require();

        store = SnapshotStores.open("jdbc:sqlite:" + dir.resolve("inbox.db"));
        clock = new TestAgents.MutableClock(Instant.parse("2026-06-01T09:00:00Z"));
        // every wait expires 19.5 h after it began: at the test's "now" (06-06 10:00) the two newest
        // runs expire in 2 h, the others have expired
        concierge = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, clock, m -> flaky = new TestAgents.FlakyModel(m))
                .waitTimeout(Duration.ofMinutes(19 * 60 + 30))
                .build();
        Agent other = TestAgents.concierge("travel-desk", store, clock);
        seed("2026-06-01T09:00:00Z", "alice", "alice-lisbon", "Book a flight to Lisbon");
        seed("2026-06-01T09:20:00Z", "alice", "alice-lisbon", "Take my passport number for Lisbon");
        seed("2026-06-02T14:30:00Z", "bob", "bob-orders", "Refund 250 EUR for order A-1001");
        seed("2026-06-03T11:00:00Z", "carol", "carol-tokyo", "Book a flight to Tokyo");
        seed("2026-06-04T08:15:00Z", "carol", "carol-orders", "Refund 180 EUR for order A-1003");
        seed("2026-06-05T16:40:00Z", "dave", "dave-documents", "Take my passport number for my file");
        seed("2026-06-05T17:00:00Z", "erin", "erin-japan", "Book a flight to Osaka");
        clock.set(NOW);

        BatonHttpApi api = BatonHttpApi.builder()
                .agents(concierge, other)
                .authenticator(Authenticator.bearerTokens().token(TestServer.ADMIN, Principal.unrestricted("ops")).build())
                .build();
        server = HttpTarget.serve(api);

        browser = Chromium.page();
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    void seed(String at, String resource, String thread, String prompt) {
        clock.set(Instant.parse(at));
        concierge.generate(prompt, RunOptions.builder().resourceId(resource).threadId(thread).build());
    }

    @AfterEach
    void stop() {
        if (server != null) server.close();
        if (store != null) store.close();
    }

    List<WebElement> runs() {
        return browser.findElements(By.cssSelector("#run-list > li.run"));
    }

    void waitForRuns(int n) {
        wait.withMessage(() -> "expected " + n + " runs; page says: " + browser.findElement(By.id("summary")).getText()
                        + " / " + browser.findElement(By.id("status")).getText())
                .until(d -> runs().size() == n && !"true".equals(d.findElement(By.tagName("body")).getAttribute("aria-busy")));
    }

    /** No Load more control in the page at all, not even a hidden one ("Load 0 more runs"). */
    void assertNoLoadMore() {
        assertThat(browser.findElements(By.id("load-more"))).as("no load-more control").isEmpty();
        assertThat((String) ((JavascriptExecutor) browser).executeScript("return document.body.textContent"))
                .doesNotContainPattern("Load \\d+ more");
    }

    /** The console's errors since they were last read: failed requests, script errors, CSP violations. */
    List<String> consoleErrors() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(e -> e.getMessage()).toList();
    }

    WebElement run(String threadId) {
        return browser.findElement(By.cssSelector("#run-list > li.run[data-thread-id='" + threadId + "']"));
    }

    List<WebElement> actions() {
        return browser.findElements(By.cssSelector("#actions > li.action"));
    }

    /** Waits for the newest action's closing line and returns the action's text. */
    String waitForOutcome(int actionsBefore, String outcome) {
        wait.until(d -> actions().size() == actionsBefore + 1 && "true".equals(actions().get(0).getAttribute("data-done")));
        WebElement newest = actions().get(0);
        assertThat(newest.findElements(By.cssSelector("li[data-outcome='" + outcome + "']"))).as(newest.getText()).hasSize(1);
        return newest.getText();
    }

    void screenshot(String name) throws Exception {
        ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0); document.activeElement.blur();");
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        Files.copy(((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void filterApproveDeclineAndResumeInTheBrowser() throws Exception {
        browser.get(server.uri() + "#token=" + TestServer.ADMIN);
        waitForRuns(7);
        assertThat(browser.findElement(By.id("who-name")).getText()).isEqualTo("ops");
        assertThat(browser.getCurrentUrl()).as("the token leaves the address bar").doesNotContain(TestServer.ADMIN);
        assertThat(browser.findElement(By.id("summary")).getText()).isEqualTo("Runs 1–7 of 7 waiting runs.");
        assertThat(runs().get(0).getAttribute("data-thread-id")).as("newest first").isEqualTo("erin-japan");
        WebElement dave = run("dave-documents");
        assertThat(dave.getText()).contains("askPassportNumber", "What is your passport number?");
        assertThat(run("carol-tokyo").findElement(By.cssSelector("pre.args")).getText()).contains("\"to\": \"Tokyo\"");

        // every control has a name a screen reader can say
        Object unlabelled = ((JavascriptExecutor) browser).executeScript(
                "return [...document.querySelectorAll('input,select,textarea,button')].filter(e => !e.closest('[hidden]'))"
                        + ".filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())"
                        + ".map(e => e.outerHTML)");
        assertThat((List<?>) unlabelled).isEmpty();

        // filter by resource, from the keyboard: type, then Enter submits
        WebElement resource = browser.findElement(By.id("resource"));
        resource.sendKeys("bob", Keys.ENTER);
        waitForRuns(1);
        assertThat(runs().get(0).getAttribute("data-resource-id")).isEqualTo("bob");
        browser.findElement(By.id("clear")).click();
        waitForRuns(7);

        // creation dates, both days inclusive
        ((JavascriptExecutor) browser).executeScript(
                "document.getElementById('from').value = '2026-06-02'; document.getElementById('to').value = '2026-06-03';");
        browser.findElement(By.cssSelector("#filters button[type=submit]")).click();
        waitForRuns(2);
        assertThat(runs()).extracting(r -> r.getAttribute("data-thread-id")).containsExactly("carol-tokyo", "bob-orders");
        browser.findElement(By.id("clear")).click();
        waitForRuns(7);

        // more runs by the cursor: five, then the next two, the keyboard on the first new one
        new Select(browser.findElement(By.id("per-page"))).selectByVisibleText("5");
        waitForRuns(5);
        assertThat(browser.findElement(By.id("summary")).getText()).isEqualTo("Runs 1–5 of 7 waiting runs.");
        WebElement more = browser.findElement(By.id("load-more"));
        assertThat(more.getText()).isEqualTo("Load 2 more runs");
        more.click();
        waitForRuns(7);
        assertThat(browser.findElement(By.id("summary")).getText()).isEqualTo("Runs 1–7 of 7 waiting runs.");
        assertNoLoadMore();
        assertThat(browser.switchTo().activeElement().getText()).isEqualTo(runs().get(5).findElement(By.tagName("h3")).getText());
        new Select(browser.findElement(By.id("per-page"))).selectByVisibleText("10");
        waitForRuns(7);

        // approve carol's flight: the events stream in, then the list loses the run
        int before = actions().size();
        run("carol-tokyo").findElement(By.cssSelector("button.approve")).click();
        String approved = waitForOutcome(before, "COMPLETED");
        assertThat(approved).contains("tool-result", "bookFlight → {\"booked\":\"Tokyo\"", "finish");
        waitForRuns(6);
        assertThat(browser.findElements(By.cssSelector("li.run[data-thread-id='carol-tokyo']"))).isEmpty();

        // decline bob's refund with a reason, sent with Enter from the reason field
        before = actions().size();
        WebElement reason = run("bob-orders").findElement(By.cssSelector("input.reason"));
        reason.sendKeys("Already refunded at the till", Keys.ENTER);
        String declined = waitForOutcome(before, "COMPLETED");
        assertThat(declined).contains("tool-output-denied", "refund did not run: \"Already refunded at the till\"")
                .doesNotContain("tool-result");
        waitForRuns(5);

        // resume dave's question: invalid JSON is refused in the page, nothing is sent
        before = actions().size();
        WebElement data = run("dave-documents").findElement(By.cssSelector("textarea.resume-data"));
        data.sendKeys("{passportNumber: X1}");
        run("dave-documents").findElement(By.cssSelector("button.resume")).click();
        WebElement error = run("dave-documents").findElement(By.cssSelector("p.error"));
        wait.until(d -> error.getText().startsWith("Not valid JSON"));
        assertThat(data.getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(actions()).hasSize(before);
        assertThat(concierge.listSuspendedRuns().total()).isEqualTo(5);

        data.clear();
        data.sendKeys("{\"passportNumber\": \"X1234567\"}");
        data.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
        String resumed = waitForOutcome(before, "COMPLETED");
        assertThat(resumed).contains("askPassportNumber → {\"passportOnFile\":\"*****567\"}");
        waitForRuns(4);
        assertThat(runs()).extracting(r -> r.getAttribute("data-thread-id"))
                .containsExactly("erin-japan", "carol-orders", "alice-lisbon", "alice-lisbon");
        assertThat(browser.findElement(By.id("summary")).getText()).isEqualTo("Runs 1–4 of 4 waiting runs.");
        screenshot("inbox.png");

        // what the page shows is what the store holds
        assertThat(concierge.listSuspendedRuns().runs()).extracting(r -> r.threadId())
                .containsExactly("erin-japan", "carol-orders", "alice-lisbon", "alice-lisbon");
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void expiryCancelContinueAndDiscardInTheBrowser() throws Exception {
        browser.get(server.uri() + "#token=" + TestServer.ADMIN);
        waitForRuns(7);

        // when each run began, and when its wait expires (by the server's clock, not the browser's)
        WebElement erin = run("erin-japan");
        assertThat(erin.findElement(By.cssSelector(".badge.expiry")).getText()).isEqualTo("expires in 2 h");
        assertThat(erin.findElement(By.cssSelector(".meta")).getText()).contains("Created", "Suspended", "Expires");
        assertThat(run("bob-orders").findElement(By.cssSelector(".badge.expiry")).getText()).isEqualTo("expired");

        // cancel one run with a reason (Enter in the reason field)
        int before = actions().size();
        run("carol-orders").findElement(By.cssSelector("input.cancel-reason")).sendKeys("Customer withdrew the refund", Keys.ENTER);
        String cancelled = waitForOutcome(before, "CANCELLED");
        assertThat(cancelled).contains("cancelled", "\"Customer withdrew the refund\"");
        waitForRuns(6);
        assertThat(browser.findElements(By.cssSelector("li.run[data-thread-id='carol-orders']"))).isEmpty();

        // approve while the model fails once: the run is kept, interrupted, with a Continue button
        flaky.failNext(1);
        before = actions().size();
        run("erin-japan").findElement(By.cssSelector("button.approve")).click();
        assertThat(waitForOutcome(before, "INTERRUPTED")).contains("provider answered 503");
        waitForRuns(6);
        erin = run("erin-japan");
        assertThat(erin.getAttribute("data-interrupted")).isEqualTo("true");
        assertThat(erin.findElement(By.cssSelector(".badge.interrupted")).getText()).isEqualTo("interrupted");
        assertThat(erin.findElement(By.cssSelector(".interruption")).getText())
                .contains("Interrupted:", "the model failed", "provider answered 503");
        assertThat(erin.findElements(By.cssSelector("button.approve"))).as("nothing waits for a person").isEmpty();
        screenshot("inbox-lifecycle.png");

        // a new run arrives while five are shown: the live list shows it on top without Refresh (issue 25);
        // Load more then continues by the cursor of what is shown: the next runs come, none twice
        new Select(browser.findElement(By.id("per-page"))).selectByVisibleText("5");
        waitForRuns(5);
        seed("2026-06-06T09:30:00Z", "zoe", "zoe-rome", "Book a flight to Rome");
        clock.set(NOW);
        wait.until(d -> "zoe-rome".equals(((JavascriptExecutor) d).executeScript(
                "const li = document.querySelector('#run-list > li.run'); return li && li.dataset.threadId;")));
        waitForRuns(5);
        assertThat(browser.findElement(By.id("summary")).getText()).isEqualTo("Runs 1–5 of 7 waiting runs.");
        browser.findElement(By.id("load-more")).click();
        waitForRuns(7);
        List<String> shown = runs().stream().map(r -> r.getAttribute("data-run-id")).toList();
        assertThat(shown).doesNotHaveDuplicates();
        assertThat(browser.findElement(By.id("summary")).getText()).isEqualTo("Runs 1–7 of 7 waiting runs.");
        browser.findElement(By.id("refresh")).click();
        waitForRuns(7);
        // read in one script: a card may be redrawn (its expiry text turned) between finding it and reading it
        wait.withMessage("refreshed from the top").until(d -> "zoe-rome".equals(((JavascriptExecutor) d).executeScript(
                "const li = document.querySelector('#run-list > li.run'); return li && li.dataset.threadId;")));

        // continue the interrupted run from the keyboard: the model goes on, the booking is not made twice
        before = actions().size();
        run("erin-japan").findElement(By.cssSelector("button.continue")).sendKeys(Keys.ENTER);
        String continued = waitForOutcome(before, "COMPLETED");
        assertThat(continued).contains("finish").doesNotContain("tool-result");
        waitForRuns(6);

        // discard an interrupted run, after a confirmation that is first declined
        flaky.failNext(1);
        before = actions().size();
        run("bob-orders").findElement(By.cssSelector("button.approve")).click();
        waitForOutcome(before, "INTERRUPTED");
        waitForRuns(6);
        WebElement bob = run("bob-orders");
        String bobRun = bob.getAttribute("data-run-id");
        bob.findElement(By.cssSelector("button.discard-ask")).click();
        WebElement keep = bob.findElement(By.cssSelector("button.discard-keep"));
        wait.until(d -> keep.isDisplayed());
        assertThat(browser.switchTo().activeElement()).as("the safe choice has the focus").isEqualTo(keep);
        keep.sendKeys(Keys.ENTER);
        wait.until(d -> !keep.isDisplayed());
        assertThat(store.find(bobRun)).as("kept").isPresent();
        before = actions().size();
        bob.findElement(By.cssSelector("button.discard-ask")).click();
        bob.findElement(By.cssSelector("button.discard-confirm")).click();
        waitForOutcome(before, "DISCARDED");
        waitForRuns(5);
        assertThat(store.find(bobRun)).isEmpty();
        assertThat(concierge.listSuspendedRuns().runs()).extracting(r -> r.threadId())
                .containsExactly("zoe-rome", "dave-documents", "carol-tokyo", "alice-lisbon", "alice-lisbon");
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void loadMoreIsOfferedOnlyWhileRunsAreLeftToLoad() throws Exception {
        browser.get(server.uri() + "#token=" + TestServer.ADMIN);
        waitForRuns(7);
        // five runs from 2 June on, five per load: a full page (it has a cursor) with nothing after it
        ((JavascriptExecutor) browser).executeScript("document.getElementById('from').value = '2026-06-02';");
        new Select(browser.findElement(By.id("per-page"))).selectByVisibleText("5");
        waitForRuns(5);
        assertThat(browser.findElement(By.id("summary")).getText()).isEqualTo("Runs 1–5 of 5 waiting runs.");
        assertNoLoadMore();

        // nothing matches
        browser.findElement(By.id("resource")).sendKeys("nobody", Keys.ENTER);
        wait.until(d -> browser.findElement(By.id("summary")).getText().equals("No suspended runs match."));
        assertThat(runs()).isEmpty();
        assertNoLoadMore();

        // all seven: two left, then none
        browser.findElement(By.id("clear")).click();
        waitForRuns(5);
        assertThat(browser.findElement(By.id("load-more")).getText()).isEqualTo("Load 2 more runs");
        browser.findElement(By.id("load-more")).click();
        waitForRuns(7);
        assertNoLoadMore();
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void thePageHasItsIconAndTheConsoleStaysClean() {
        browser.get(server.uri() + "#token=" + TestServer.ADMIN);
        waitForRuns(7);
        Object icon = ((JavascriptExecutor) browser).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "const link = document.querySelector('link[rel=icon]');"
                        + "fetch(link.href).then(r => done(link.getAttribute('href') + ' ' + r.status + ' ' + r.headers.get('Content-Type')));");
        assertThat(icon).isEqualTo("favicon.svg 200 image/svg+xml");
        // the browser asks for the icon by itself once the page has loaded: give it the time
        wait.until(d -> ((JavascriptExecutor) d).executeScript("return document.readyState").equals("complete"));
        assertThat(consoleErrors()).as("no failed request (no 404 for a favicon), no script error, no CSP violation").isEmpty();
    }

    @Test
    void aWrongTokenAsksToSignInAgain() throws Exception {
        browser.get(server.uri() + "#token=not-the-right-token-000");
        WebElement login = browser.findElement(By.id("login"));
        wait.until(d -> login.isDisplayed());
        assertThat(browser.findElement(By.id("status")).getText()).isEqualTo("That token was not accepted.");
        WebElement token = browser.findElement(By.id("token"));
        token.sendKeys(TestServer.ADMIN, Keys.ENTER);
        waitForRuns(7);
        screenshot("inbox-signed-in.png");
        assertThat(consoleErrors()).as("only the refused token's 401").singleElement().asString()
                .contains("/me - Failed to load resource: the server responded with a status of 401");
    }
}
