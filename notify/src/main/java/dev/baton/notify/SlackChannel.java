package dev.baton.notify;

import dev.baton.InvalidOptionException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * A Slack incoming webhook (or any receiver of that format: Mattermost, Rocket.Chat): a JSON
 * {@code POST} of {@code text} (the notification in one line, with the link) and {@code blocks}
 * (the text, an "Open in the inbox" button, and the notification's id). Both texts are escaped
 * ({@code &}, {@code <}, {@code >}), so a resource or agent named {@code <!channel>} mentions nobody.
 * Slack does not sign what it receives: the webhook URL itself is the secret, keep it out of logs
 * and code. Answers are read as in {@link WebhookChannel}; Slack's explanation of a refusal (the
 * answer's body: {@code invalid_blocks}, {@code no_text}, {@code channel_is_archived}) is kept in the
 * failure's detail and so in the dead letter ({@code "slack: HTTP 400: invalid_blocks"}). Thread-safe.
 *
 * <pre>{@code
 * NotificationChannel slack = SlackChannel.of(URI.create(System.getenv("SLACK_WEBHOOK_URL")));
 * }</pre>
 */
public final class SlackChannel implements NotificationChannel {
    private final HttpPoster poster;
    private final String name;

    private SlackChannel(URI url, String name, Duration timeout) {
        this.poster = new HttpPoster(url, timeout, timeout);
        this.name = name;
    }

    /**
     * A Slack channel named {@code slack} with a 10 s timeout.
     *
     * @param webhookUrl the incoming webhook's URL
     * @return the channel
     * @throws InvalidOptionException ({@code webhookUrl}) not an http(s) URL with a host
     */
    public static SlackChannel of(URI webhookUrl) {
        return of(webhookUrl, "slack", Duration.ofSeconds(10));
    }

    /**
     * A Slack channel with its own name and timeout: for a notifier that posts to several Slack
     * channels (name each, e.g. {@code slack-finance} and {@code slack-ops}, so a dead letter and the
     * {@code channel} tag of the metrics say which), or a receiver that is slower than 10 s.
     *
     * <pre>{@code
     * SlackChannel finance = SlackChannel.of(URI.create(System.getenv("SLACK_FINANCE_URL")), "slack-finance",
     *         Duration.ofSeconds(5));
     * }</pre>
     *
     * @param webhookUrl the incoming webhook's URL
     * @param name       the channel's name in logs, dead letters and metrics
     * @param timeout    for connecting and for the whole request; positive
     * @return the channel
     * @throws InvalidOptionException ({@code webhookUrl}, {@code name}, {@code timeout}) a bad value
     */
    public static SlackChannel of(URI webhookUrl, String name, Duration timeout) {
        Urls.http("webhookUrl", webhookUrl);
        if (name == null || name.isBlank()) throw new InvalidOptionException("name", "must not be blank");
        return new SlackChannel(webhookUrl, name, Urls.positive("timeout", timeout));
    }

    @Override
    public DeliveryResult deliver(Notification notification) {
        return poster.post(NotificationJson.slack(notification), Map.of());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "SlackChannel[" + name + "]";   // never the URL: it is the secret
    }
}
