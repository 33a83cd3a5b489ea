package dev.baton.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.InvalidOptionException;
import dev.baton.agent.NotificationEvent;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The webhook and Slack channels against a receiver on 127.0.0.1: what each answer means, timeouts, the payloads. */
class WebhookChannelTest {
    static final String SECRET = "whsec_YS1zaGFyZWQtc2VjcmV0LWZvci10aGUtdGVzdHMtMzI=";   // 32 bytes
    Receiver receiver;

    static Notification notification() {
        return new Notification("run-1/1717236000000-2/suspended", NotificationEvent.SUSPENDED, "concierge", "run-1", "bob-orders",
                "bob", Instant.parse("2026-06-01T10:00:00Z"), Instant.parse("2026-06-02T10:00:00Z"), null,
                List.of(new Notification.WaitingCall("call-1", "refund", true, null)),
                URI.create("https://ops.example.com/baton/?agent=concierge&run=run-1"), 1);
    }

    @BeforeEach
    void start() throws Exception {
        receiver = new Receiver().verifying(WebhookVerifier.of(SECRET));
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    WebhookChannel channel(Duration timeout) {
        return WebhookChannel.builder(receiver.url()).secret(SECRET).requestTimeout(timeout).connectTimeout(timeout).build();
    }

    @Test
    void a2xxIsDelivered_signedAndVerifiedByTheReceiver_withTheStableIdAndTheLink() throws Exception {
        assertThat(channel(Duration.ofSeconds(5)).deliver(notification())).isEqualTo(DeliveryResult.delivered());
        Receiver.Received r = receiver.received.get(0);
        assertThat(r.verified()).isTrue();
        assertThat(r.id()).isEqualTo("run-1/1717236000000-2/suspended");
        JsonNode body = new ObjectMapper().readTree(r.body());
        assertThat(body.path("type").asText()).isEqualTo("run.suspended");
        assertThat(body.path("id").asText()).isEqualTo(r.id());
        assertThat(body.at("/data/link").asText()).isEqualTo("https://ops.example.com/baton/?agent=concierge&run=run-1");
        assertThat(body.at("/data/waitingCalls/0/toolName").asText()).isEqualTo("refund");
        assertThat(body.at("/data/text").asText()).isEqualTo("Run run-1 of concierge waits for an approval: refund (bob)");
        assertThat(body.path("timestamp").asText()).as("the top-level timestamp Standard Webhooks recommends: when it occurred")
                .isEqualTo("2026-06-01T10:00:00Z");
        assertThat(r.id()).as("Standard Webhooks: a message id holds no '.'").doesNotContain(".");
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504, 408, 429})
    void a5xx_408_and429AreRetryable(int status) {
        receiver.always(status);
        DeliveryResult r = channel(Duration.ofSeconds(5)).deliver(notification());
        assertThat(r.outcome()).isEqualTo(DeliveryResult.Outcome.RETRYABLE);
        assertThat(r.detail()).isEqualTo("HTTP " + status);
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 410, 413, 422, 301, 302})
    void otherStatusesArePermanent(int status) {
        receiver.always(status);
        DeliveryResult r = channel(Duration.ofSeconds(5)).deliver(notification());
        assertThat(r.outcome()).isEqualTo(DeliveryResult.Outcome.PERMANENT);
        assertThat(receiver.requests()).as("a redirect is not followed").isEqualTo(1);
    }

    @Test
    void aWrongSecretIsRefusedByTheReceiver_permanently() {
        WebhookChannel wrong = WebhookChannel.builder(receiver.url()).secret("whsec_bm90LXRoZS1yZWNlaXZlcnMtc2VjcmV0LWF0LWFsbCE=").build();
        assertThat(wrong.deliver(notification()).outcome()).isEqualTo(DeliveryResult.Outcome.PERMANENT);
        assertThat(receiver.received.get(0).answered()).isEqualTo(401);
    }

    @Test
    void aSlowReceiverTimesOut_retryably_withinTheTimeout() {
        receiver.slow(2000);
        long start = System.nanoTime();
        DeliveryResult r = channel(Duration.ofMillis(300)).deliver(notification());
        long took = (System.nanoTime() - start) / 1_000_000;
        assertThat(r.outcome()).isEqualTo(DeliveryResult.Outcome.RETRYABLE);
        assertThat(r.detail()).contains("timed out");
        assertThat(took).isLessThan(1500);
    }

    @Test
    void aReceiverThatIsNotThereIsRetryable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        WebhookChannel nowhere = WebhookChannel.builder(URI.create("http://127.0.0.1:" + port + "/hook")).secret(SECRET).build();
        assertThat(nowhere.deliver(notification()).outcome()).isEqualTo(DeliveryResult.Outcome.RETRYABLE);
    }

    @Test
    void slackGetsTextAndBlocksWithTheLink_escaped() throws Exception {
        SlackChannel slack = SlackChannel.of(receiver.url());
        receiver.verifying(null);
        Notification n = notification();
        Notification tricky = new Notification(n.id(), n.event(), "a<b>&c", n.runId(), null, null, n.suspendedAt(), null, null,
                n.waitingCalls(), n.link(), 1);
        assertThat(slack.deliver(tricky).isDelivered()).isTrue();
        JsonNode body = new ObjectMapper().readTree(receiver.received.get(0).body());
        assertThat(body.path("text").asText()).as("Slack's top-level text, escaped as the blocks are")
                .contains("waits for an approval", "https://ops.example.com/baton/?agent=concierge&amp;run=run-1")
                .contains("a&lt;b&gt;&amp;c").doesNotContain("<b>");
        assertThat(body.at("/blocks/0/text/type").asText()).isEqualTo("mrkdwn");
        assertThat(body.at("/blocks/0/text/text").asText()).contains("a&lt;b&gt;&amp;c").doesNotContain("<b>");
        assertThat(body.at("/blocks/1/elements/0/url").asText()).isEqualTo(n.link().toString());
        assertThat(slack.toString()).doesNotContain("127.0.0.1");
    }

    /**
     * Slack reads its top-level {@code text} as mrkdwn too: a resource {@code bob & <!channel>} must not
     * become a mention of the whole channel, neither in the text nor in the blocks.
     */
    @Test
    void slacksTopLevelTextIsEscaped_soAResourceMentionsNobody() throws Exception {
        receiver.verifying(null);
        Notification n = notification();
        Notification hostile = new Notification(n.id(), n.event(), n.agentId(), n.runId(), null, "bob & <!channel> <alice>",
                n.suspendedAt(), null, null, n.waitingCalls(), n.link(), 1);
        assertThat(SlackChannel.of(receiver.url()).deliver(hostile).isDelivered()).isTrue();
        JsonNode body = new ObjectMapper().readTree(receiver.received.get(0).body());
        for (String text : List.of(body.path("text").asText(), body.at("/blocks/0/text/text").asText())) {
            assertThat(text).as("a text Slack reads as mrkdwn").contains("bob &amp; &lt;!channel&gt; &lt;alice&gt;")
                    .doesNotContain("<!channel>").doesNotContain("<alice>");
        }
    }

    /** Slack's explanation of a refusal (the answer's body) is kept in the failure's detail. */
    @Test
    void slacksExplanationOfARefusalIsKept() {
        receiver.verifying(null).always(400).explaining("invalid_blocks");
        DeliveryResult r = SlackChannel.of(receiver.url(), "slack-ops", Duration.ofSeconds(5)).deliver(notification());
        assertThat(r.outcome()).isEqualTo(DeliveryResult.Outcome.PERMANENT);
        assertThat(r.detail()).isEqualTo("HTTP 400: invalid_blocks");
    }

    @Test
    void badOptionsAreRefusedNamingThem() {
        assertThatThrownBy(() -> WebhookChannel.builder(URI.create("ftp://example.com/x"))).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("url");
        assertThatThrownBy(() -> WebhookChannel.builder(receiver.url()).build()).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("secret");
        assertThatThrownBy(() -> WebhookChannel.builder(receiver.url()).requestTimeout(Duration.ZERO))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("requestTimeout");
        assertThatThrownBy(() -> SlackChannel.of(URI.create("/relative"))).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("webhookUrl");
    }
}
