package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.RunOptions;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * When the server refuses an action (here a 400: an edit that breaks the tool's input schema, data that
 * breaks its resume schema), nothing changed, so the card must let the person go on: its buttons come
 * back, the refusal shows under the editor or the data field (not only in Activity), and a corrected
 * edit or answer then goes through. The data field suggests what the tool's resume schema asks for.
 * Real headless Chromium over a server on the in-memory store.
 */
class InboxRefusalBrowserTest {
    static final String MARIA = "maria-token-0123456789";

    SnapshotStore store;
    Agent desk;
    HttpTarget.Served server;
    ChromeDriver browser;
    WebDriverWait wait;

    static Agent desk(SnapshotStore store) {
        Tool bookFlight = Tool.builder("bookFlight")
                .inputSchema("{\"type\":\"object\",\"required\":[\"to\"],\"additionalProperties\":false,"
                        + "\"properties\":{\"to\":{\"type\":\"string\",\"minLength\":2}}}")
                .requireApproval(true)
                .execute((input, ctx) -> Map.of("booked", input.path("to").asText()))
                .build();
        Tool askPassport = Tool.builder("askPassportNumber")
                .resumeSchema("{\"type\":\"object\",\"required\":[\"passportNumber\"],"
                        + "\"properties\":{\"passportNumber\":{\"type\":\"string\",\"minLength\":4}}}")
                .execute((input, ctx) -> ctx.resumeData() == null
                        ? ctx.suspend(Map.of("question", "What is your passport number?"))
                        : Map.of("onFile", ctx.resumeData().path("passportNumber").asText()))
                .build();
        return Agent.builder("desk")
                .model(DeterministicModel.builder()
                        .whenUserSays("flight", "bookFlight", Map.of("to", "Tokyo"))
                        .whenUserSays("passport", "askPassportNumber", Map.of())
                        .build())
                .tools(bookFlight, askPassport)
                .store(store)
                .build();
    }

    @BeforeEach
    void start() throws Exception {
        Chromium.require();
        store = MemorySnapshotStore.create();
        desk = desk(store);
        desk.generate("Book a flight", RunOptions.builder().resourceId("carol").threadId("carol-trip").build());
        desk.generate("Take my passport", RunOptions.builder().resourceId("dave").threadId("dave-file").build());
        BatonHttpApi api = BatonHttpApi.builder()
                .agents(desk)
                .authenticator(Authenticator.bearerTokens().token(MARIA, Principal.unrestricted("maria")).build())
                .build();
        server = HttpTarget.serve(api);

        browser = Chromium.page();
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
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

    WebElement run(String threadId) {
        return browser.findElement(By.cssSelector("#run-list > li.run[data-thread-id='" + threadId + "']"));
    }

    List<WebElement> actions() {
        return browser.findElements(By.cssSelector("#actions > li.action"));
    }

    void waitForAction(int before) {
        wait.until(d -> actions().size() == before + 1 && "true".equals(actions().get(0).getAttribute("data-done")));
    }

    @Test
    void aRefusedEditOrAnswerLeavesTheCardUsableAndShowsWhyWhereThePersonIs() {
        browser.get(server.uri() + "#token=" + MARIA);
        wait.until(d -> runs().size() == 2);

        // an edit the tool's input schema refuses: 400, shown under the editor; the card's buttons come back
        WebElement carol = run("carol-trip");
        carol.findElement(By.cssSelector("button.edit")).click();
        WebElement args = carol.findElement(By.cssSelector("textarea.edit-args"));
        wait.until(d -> args.isDisplayed());
        args.sendKeys(Keys.chord(Keys.CONTROL, "a"), "{\"to\": \"X\"}");
        int before = actions().size();
        carol.findElement(By.cssSelector("button.approve-edited")).click();
        waitForAction(before);
        WebElement editorError = carol.findElement(By.cssSelector(".editor p.error"));
        wait.until(d -> !editorError.getText().isEmpty());
        assertThat(editorError.getText()).contains("400", "to").doesNotContain("Not valid JSON");
        assertThat(actions().get(0).getText()).contains("400");
        assertThat(carol.findElements(By.cssSelector("button"))).as("every button of the card is usable again")
                .allSatisfy(b -> assertThat(b.isEnabled()).as(b.getText()).isTrue());
        assertThat(desk.listSuspendedRuns().total()).as("nothing changed").isEqualTo(2);

        // corrected, it goes through
        args.sendKeys(Keys.chord(Keys.CONTROL, "a"), "{\"to\": \"Osaka\"}");
        before = actions().size();
        carol.findElement(By.cssSelector("button.approve-edited")).click();
        waitForAction(before);
        assertThat(actions().get(0).findElements(By.cssSelector("li[data-outcome='COMPLETED']"))).hasSize(1);
        wait.until(d -> runs().size() == 1);

        // the data field suggests what the tool's resume schema asks for; data that breaks it is refused under the field
        WebElement dave = run("dave-file");
        WebElement data = dave.findElement(By.cssSelector("textarea.resume-data"));
        assertThat(data.getAttribute("placeholder")).isEqualTo("{\"passportNumber\":\"...\"}");
        data.sendKeys("{\"answer\": \"X1234567\"}");
        before = actions().size();
        dave.findElement(By.cssSelector("button.resume")).click();
        waitForAction(before);
        WebElement dataError = dave.findElement(By.cssSelector(".call p.error"));
        wait.until(d -> !dataError.getText().isEmpty());
        assertThat(dataError.getText()).contains("400", "passportNumber");
        assertThat(dave.findElement(By.cssSelector("button.resume")).isEnabled()).isTrue();
        assertThat(dave.findElement(By.cssSelector("button.cancel")).isEnabled()).isTrue();

        data.sendKeys(Keys.chord(Keys.CONTROL, "a"), "{\"passportNumber\": \"X1234567\"}");
        before = actions().size();
        dave.findElement(By.cssSelector("button.resume")).click();
        waitForAction(before);
        assertThat(actions().get(0).findElements(By.cssSelector("li[data-outcome='COMPLETED']"))).hasSize(1);
        wait.until(d -> runs().isEmpty());
    }
}
