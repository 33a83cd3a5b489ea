package dev.baton.http;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;

/**
 * Debian's headless Chromium for the browser tests, started one way for all of them: required under CI
 * ({@code .ci/run} installs it), skipped elsewhere when it is missing; the browser's console kept for
 * the tests that read it.
 *
 * <p>One browser per test JVM, shared by every browser class (starting Chromium and its driver took
 * longer than most tests): {@link #page()} hands it to a test as a fresh tab in a clean state, the
 * tabs of the test before closed, cookies and every origin's storage and the HTTP cache cleared, the
 * window 1400 x 1100, the console read empty. A test that needs two pages at once (the live inbox)
 * takes a second browser with {@link #page(int)}. The browsers close when the JVM exits. The suite's
 * classes run one after another in a JVM (no JUnit parallelism in baton-http or the starter's tests),
 * which a shared browser needs.
 */
final class Chromium {
    static final Path BINARY = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    /** The name {@code CrossSiteBrowserTest} reaches the server by (DNS rebinding): resolved to 127.0.0.1 by every browser. */
    static final String ATTACKER_HOST = "attacker.test";

    private static final List<ChromeDriver> BROWSERS = new ArrayList<>();
    private static Path profiles;

    private Chromium() {
    }

    /** Fails under CI when Chromium or its driver is missing, else skips the test (JUnit assumption). */
    static void require() {
        boolean present = Files.isExecutable(BINARY) && Files.isExecutable(DRIVER);
        if (System.getenv("CI") != null && !present) {
            throw new AssertionError("CI must have chromium and chromium-driver (.ci/run installs them)");
        }
        assumeTrue(present, "Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)");
    }

    /** {@return the shared browser, in a fresh tab and a clean state} */
    static ChromeDriver page() {
        return page(0);
    }

    /**
     * {@return shared browser number {@code which} (0 or 1, started with its first use), in a fresh tab and a clean state}
     *
     * @param which 0 for the browser every test shares, 1 for a second page at the same time
     */
    static synchronized ChromeDriver page(int which) {
        while (BROWSERS.size() <= which) BROWSERS.add(null);
        ChromeDriver browser = BROWSERS.get(which);
        if (browser != null) {
            try {
                return clean(browser);
            } catch (WebDriverException e) {   // a browser that died or hung up: a new one
                quietly(browser);
            }
        }
        browser = clean(start(which));
        BROWSERS.set(which, browser);
        return browser;
    }

    /** A new tab, the others closed; no cookie, no stored data, no cached response; the window's size; the console read. */
    private static ChromeDriver clean(ChromeDriver browser) {
        List<String> old = new ArrayList<>(browser.getWindowHandles());
        browser.switchTo().newWindow(WindowType.TAB);
        String tab = browser.getWindowHandle();
        for (String handle : old) {
            browser.switchTo().window(handle);
            browser.close();
        }
        browser.switchTo().window(tab);
        browser.executeCdpCommand("Network.clearBrowserCookies", Map.of());
        browser.executeCdpCommand("Network.clearBrowserCache", Map.of());
        // every origin's local storage, IndexedDB, service workers, cache storage (sessionStorage is the closed tab's)
        browser.executeCdpCommand("Storage.clearDataForOrigin", Map.of("origin", "*", "storageTypes", "all"));
        browser.manage().window().setSize(new Dimension(1400, 1100));
        browser.manage().logs().get(LogType.BROWSER);
        return browser;
    }

    /** A headless browser with its own profile, a 1400 x 1100 window, English, {@value #ATTACKER_HOST} on loopback. */
    private static ChromeDriver start(int which) {
        try {
            if (profiles == null) {
                profiles = Files.createTempDirectory("baton-chromium");
                Runtime.getRuntime().addShutdownHook(new Thread(Chromium::quitAll, "chromium-quit"));
            }
            System.setProperty("webdriver.chrome.driver", DRIVER.toString());
            ChromeOptions options = new ChromeOptions();
            options.setBinary(BINARY.toFile());
            options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));   // the console, for tests that read it
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1400,1100", "--lang=en-US",
                    // less for the browser to do beside the tests' pages (the machine's CPU is what the build waits on):
                    // no extensions, crash reporter, audio, keyring, or background services a page never uses
                    "--disable-extensions", "--disable-component-extensions-with-background-pages", "--disable-default-apps",
                    "--disable-crash-reporter", "--disable-breakpad", "--mute-audio", "--password-store=basic",
                    "--use-mock-keychain", "--disable-domain-reliability", "--disable-client-side-phishing-detection",
                    "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,"
                            + "CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions",
                    "--host-resolver-rules=MAP " + ATTACKER_HOST + " 127.0.0.1",
                    "--user-data-dir=" + Files.createDirectories(profiles.resolve("profile-" + which + "-" + System.nanoTime())));
            return new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                    .usingAnyFreePort().build(), options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static synchronized void quitAll() {
        for (ChromeDriver browser : BROWSERS) if (browser != null) quietly(browser);
        BROWSERS.clear();
        try (Stream<Path> files = Files.walk(profiles)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temporary folder left behind
        }
    }

    private static void quietly(ChromeDriver browser) {
        try {
            browser.quit();
        } catch (RuntimeException e) {
            // already gone
        }
    }
}
