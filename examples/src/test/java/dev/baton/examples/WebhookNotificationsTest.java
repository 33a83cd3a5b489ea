package dev.baton.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link WebhookNotifications}: a webhook receives a run that waits, verified, then the run is approved. */
class WebhookNotificationsTest {
    @Test
    void aWebhookReceivesTheRunThatWaits() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = WebhookNotifications.run("memory:", new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out).isZero();
        assertThat(out).contains("waits for an approval of the refund", "receiver: verified webhook ", "\"type\":\"run.suspended\"",
                "\"toolName\":\"refund\"", "http://127.0.0.1:8080/?agent=refunds&run=", "approver: approved",
                "Stats[sent=1, retried=0, dead=0");
    }
}
