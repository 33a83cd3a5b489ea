package dev.baton.http;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium for the browser tests, started one way for all of them: required under CI
 * ({@code .ci/run} installs it), skipped elsewhere when it is missing; the browser's console kept for
 * the tests that read it; a profile of its own in the test's temporary folder.
 */
final class Chromium {
    static final Path BINARY = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");

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

    /**
     * A headless browser with its own profile under {@code profile}, a 1400 x 1100 window, English.
     *
     * @param extraArguments more Chromium switches (say {@code --host-resolver-rules=...})
     */
    static ChromeDriver start(Path profile, String... extraArguments) throws IOException {
        System.setProperty("webdriver.chrome.driver", DRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BINARY.toFile());
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));   // the console, for tests that read it
        List<String> args = new ArrayList<>(List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1100", "--lang=en-US",
                "--user-data-dir=" + Files.createDirectories(profile)));
        args.addAll(List.of(extraArguments));
        options.addArguments(args);
        ChromeDriver browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build(), options);
        browser.manage().window().setSize(new Dimension(1400, 1100));
        return browser;
    }
}
