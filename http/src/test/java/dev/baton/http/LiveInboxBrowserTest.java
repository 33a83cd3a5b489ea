package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.RunOptions;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live inbox (issue 25) in two headless Chromium pages over one server: one page approves a
 * run, the other shows it gone within a second, without Refresh; a run started elsewhere appears
 * on both; a run discarded behind the pages' backs disappears. The pages poll the listing with
 * {@code If-None-Match} and get {@code 304} while nothing changed.
 */
class LiveInboxBrowserTest {
    @TempDir
    Path dir;

    SnapshotStore store;
    Agent concierge;
    HttpTarget.Served server;
    final List<ChromeDriver> browsers = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        Chromium.require();
        store = SnapshotStores.open("jdbc:sqlite:" + dir.resolve("live.db"));
        concierge = TestAgents.concierge(TestAgents.CONCIERGE, store, Clock.systemUTC());
        seed("alice", "alice-lisbon", "Book a flight to Lisbon");
        seed("bob", "bob-orders", "Refund 250 EUR for order A-1001");
        seed("carol", "carol-tokyo", "Book a flight to Tokyo");
        BatonHttpApi api = BatonHttpApi.builder().agents(concierge)
                .authenticator(Authenticator.bearerTokens().token(TestServer.ADMIN, Principal.unrestricted("ops")).build())
                .build();
        server = HttpTarget.serve(api);
    }

    void seed(String resource, String thread, String prompt) throws InterruptedException {
        concierge.generate(prompt, RunOptions.builder().resourceId(resource).threadId(thread).build());
        Thread.sleep(5); // the next run is created in a later millisecond: the order asserted is by creation, not the tie-break
    }

    /** The test's first page is the shared browser, its second a second browser ({@link Chromium#page(int)}). */
    ChromeDriver page() {
        ChromeDriver b = Chromium.page(browsers.size());
        browsers.add(b);
        b.get(server.uri() + "#token=" + TestServer.ADMIN);
        return b;
    }

    @AfterEach
    void stop() {
        if (server != null) server.close();
        if (store != null) store.close();
    }

    /** The threads of the runs shown, read in one script (the list may be redrawn between two WebDriver calls). */
    @SuppressWarnings("unchecked")
    static List<String> threads(ChromeDriver b) {
        return (List<String>) ((JavascriptExecutor) b).executeScript(
                "return [...document.querySelectorAll('#run-list > li.run')].map(e => e.dataset.threadId);");
    }

    static void awaitThreads(ChromeDriver b, Duration within, String... threads) {
        new WebDriverWait(b, within, Duration.ofMillis(25))
                .withMessage(() -> "expected " + List.of(threads) + ", page shows " + threads(b))
                .until(d -> threads(b).equals(List.of(threads)));
    }

    /** How many listing responses of each status the page got (Resource Timing: the 304s carry no body). */
    @SuppressWarnings("unchecked")
    static Map<String, Long> listingStatuses(ChromeDriver b) {
        return (Map<String, Long>) ((JavascriptExecutor) b).executeScript(
                "const out = {}; for (const e of performance.getEntriesByType('resource')) {"
                        + " if (!e.name.includes('/suspended-runs')) continue;"
                        + " const k = String(e.responseStatus); out[k] = (out[k] || 0) + 1; } return out;");
    }

    /** A card's text, read in one script (the card may be redrawn between two WebDriver calls). */
    static String cardText(ChromeDriver b, String selector) {
        Object text = ((JavascriptExecutor) b).executeScript(
                "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", selector);
        return String.valueOf(text);
    }

    static List<String> consoleErrors(ChromeDriver b) {
        return b.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(e -> e.getMessage()).toList();
    }

    @Test
    void onePageApproves_theOtherShowsItGoneWithinASecond() throws Exception {
        ChromeDriver a = page();
        ChromeDriver b = page();
        awaitThreads(a, Duration.ofSeconds(20), "carol-tokyo", "bob-orders", "alice-lisbon");
        awaitThreads(b, Duration.ofSeconds(20), "carol-tokyo", "bob-orders", "alice-lisbon");

        // a few quiet polls: answered 304, the list stays as it was (the same card elements)
        WebElement carolOnB = b.findElement(By.cssSelector("#run-list > li.run[data-thread-id='carol-tokyo']"));
        new WebDriverWait(b, Duration.ofSeconds(10), Duration.ofMillis(50))
                .withMessage(() -> "quiet polls answered 304: " + listingStatuses(b))
                .until(d -> listingStatuses(b).getOrDefault("304", 0L) >= 2);
        assertThat(b.findElement(By.cssSelector("#run-list > li.run[data-thread-id='carol-tokyo']"))).isEqualTo(carolOnB);

        // page A approves carol's flight; the moment A's action is done, B has at most a second
        a.findElement(By.cssSelector("#run-list > li.run[data-thread-id='carol-tokyo'] button.approve")).click();
        new WebDriverWait(a, Duration.ofSeconds(20), Duration.ofMillis(10)).until(d ->
                !d.findElements(By.cssSelector("#actions > li.action[data-done='true']")).isEmpty());
        long decided = System.nanoTime();
        awaitThreads(b, Duration.ofMillis(1000), "bob-orders", "alice-lisbon");
        long tookMillis = (System.nanoTime() - decided) / 1_000_000;
        System.out.println("live inbox: the other page lost the approved run after " + tookMillis + " ms");
        assertThat(b.findElements(By.cssSelector("#actions > li.action"))).as("B did nothing itself").isEmpty();

        // a run that starts waiting elsewhere (not through either page) appears on both
        seed("dave", "dave-osaka", "Book a flight to Osaka");
        awaitThreads(a, Duration.ofMillis(1500), "dave-osaka", "bob-orders", "alice-lisbon");
        awaitThreads(b, Duration.ofMillis(1500), "dave-osaka", "bob-orders", "alice-lisbon");

        // a run discarded behind the pages' backs (as the expirer discards expired runs) goes from both
        String bobRun = concierge.listSuspendedRuns(dev.baton.agent.AgentListSuspendedRunsOptions.builder()
                .resourceId("bob").build()).runs().get(0).runId();
        concierge.cancelRun(bobRun, "withdrawn elsewhere");
        awaitThreads(a, Duration.ofMillis(1500), "dave-osaka", "alice-lisbon");
        awaitThreads(b, Duration.ofMillis(1500), "dave-osaka", "alice-lisbon");

        // a hidden tab does not poll
        long before = listingStatuses(b).values().stream().mapToLong(Long::longValue).sum();
        ((JavascriptExecutor) b).executeScript("Object.defineProperty(document, 'hidden', { value: true, configurable: true });");
        Thread.sleep(2000);
        long after = listingStatuses(b).values().stream().mapToLong(Long::longValue).sum();
        assertThat(after - before).as("polls while hidden").isLessThanOrEqualTo(1);

        assertThat(consoleErrors(a)).isEmpty();
        assertThat(consoleErrors(b)).isEmpty();
    }

    @Test
    void aPersonInTheMiddleOfACardKeepsTheFocusWhileOtherCardsChangeLive() throws Exception {
        ChromeDriver b = page();
        awaitThreads(b, Duration.ofSeconds(20), "carol-tokyo", "bob-orders", "alice-lisbon");
        // bob's card: a person is typing a reason for cancelling it
        WebElement bob = b.findElement(By.cssSelector("#run-list > li.run[data-thread-id='bob-orders']"));
        WebElement reason = bob.findElement(By.cssSelector("input.cancel-reason"));
        reason.click();
        reason.sendKeys("already refunded at");
        assertThat(b.switchTo().activeElement()).isEqualTo(reason);

        // meanwhile a run starts waiting above it and another is decided below it, elsewhere
        seed("dave", "dave-osaka", "Book a flight to Osaka");
        String aliceRun = concierge.listSuspendedRuns(dev.baton.agent.AgentListSuspendedRunsOptions.builder()
                .resourceId("alice").build()).runs().get(0).runId();
        concierge.cancelRun(aliceRun, "withdrawn elsewhere");
        awaitThreads(b, Duration.ofSeconds(5), "dave-osaka", "carol-tokyo", "bob-orders");

        // the same card, the half-typed reason kept, the focus where the person left it: typing goes on
        assertThat(b.findElement(By.cssSelector("#run-list > li.run[data-thread-id='bob-orders']"))).isEqualTo(bob);
        assertThat(b.switchTo().activeElement()).as("the focus stays in the reason").isEqualTo(reason);
        b.switchTo().activeElement().sendKeys(" the till");
        assertThat(reason.getAttribute("value")).isEqualTo("already refunded at the till");
        assertThat(consoleErrors(b)).isEmpty();
    }

    @Test
    void aCardRedrawnBecauseItsOwnExpiryTurnedKeepsWhatThePersonTyped() throws Exception {
        // a run whose deadline is 72 s away: its card reads "expires in 1 min" until 12 s from now,
        // then "less than a minute" (the redraw this test is about)
        concierge.generate("Book a flight to Rio", RunOptions.builder().resourceId("erin").threadId("erin-rio")
                .waitTimeout(Duration.ofSeconds(72)).build());
        long seeded = System.nanoTime();
        ChromeDriver b = page();
        awaitThreads(b, Duration.ofSeconds(20), "erin-rio", "carol-tokyo", "bob-orders", "alice-lisbon");
        String erin = "#run-list > li.run[data-thread-id='erin-rio']";
        By erinCard = By.cssSelector(erin);
        WebElement reason = b.findElement(erinCard).findElement(By.cssSelector("input.cancel-reason"));
        reason.click();
        reason.sendKeys("booked by ph");
        assertThat(cardText(b, erin)).contains("expires in 1 min");
        assertThat(Duration.ofNanos(System.nanoTime() - seeded)).as("typed before the minute turned").isLessThan(Duration.ofSeconds(11));
        // about 12 s away: looked at four times a second (no bound on how soon is asserted here, unlike awaitThreads)
        new WebDriverWait(b, Duration.ofSeconds(40), Duration.ofMillis(250))
                .until(d -> cardText(b, erin).contains("less than a minute"));

        // a new card, with the half-typed reason and the focus (and the caret at its end) carried over
        WebElement redrawn = b.findElement(erinCard).findElement(By.cssSelector("input.cancel-reason"));
        assertThat(redrawn).as("the card was redrawn").isNotEqualTo(reason);
        assertThat(redrawn.getAttribute("value")).isEqualTo("booked by ph");
        assertThat(b.switchTo().activeElement()).as("the focus is in the redrawn reason").isEqualTo(redrawn);
        b.switchTo().activeElement().sendKeys("one");
        assertThat(redrawn.getAttribute("value")).isEqualTo("booked by phone");
        assertThat(consoleErrors(b)).isEmpty();
    }

    @Test
    void aNotificationsLinkOpensTheInboxAtTheRun() throws Exception {
        String runId = concierge.listSuspendedRuns(dev.baton.agent.AgentListSuspendedRunsOptions.builder()
                .resourceId("bob").build()).runs().get(0).runId();
        ChromeDriver c = page();
        c.get(server.uri() + "?agent=" + TestAgents.CONCIERGE + "&run=" + runId + "#token=" + TestServer.ADMIN);
        new WebDriverWait(c, Duration.ofSeconds(20)).until(d ->
                !d.findElements(By.cssSelector("#run-list > li.run.linked[data-run-id='" + runId + "']")).isEmpty());
        assertThat(threads(c)).hasSize(3);
        assertThat(consoleErrors(c)).isEmpty();
    }
}
