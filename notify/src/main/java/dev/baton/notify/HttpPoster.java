package dev.baton.notify;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One JSON POST and what its answer means: 2xx delivered; 408, 429 and 5xx retryable; any other
 * status (another 4xx, a redirect, which is not followed) permanent; a timeout or a failed
 * connection retryable. A failure's detail keeps the start of the receiver's answer (Slack explains
 * itself there: {@code invalid_blocks}, {@code no_text}), at most {@value #MAX_EXPLANATION}
 * characters, on one line; a 429 or 503 carries the receiver's {@code Retry-After}.
 */
final class HttpPoster {
    /** The most characters of a receiver's answer a failure's detail keeps. */
    static final int MAX_EXPLANATION = 200;

    private final HttpClient client;
    private final URI url;
    private final Duration requestTimeout;

    HttpPoster(URI url, Duration connectTimeout, Duration requestTimeout) {
        this.url = url;
        this.requestTimeout = requestTimeout;
        this.client = HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    DeliveryResult post(byte[] body, Map<String, String> headers) {
        HttpRequest.Builder req = HttpRequest.newBuilder(url)
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "Baton-Notify")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(req::header);
        try {
            HttpResponse<InputStream> res = client.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
            int status = res.statusCode();
            String explanation;
            try (InputStream in = res.body()) {
                // a delivered answer is not read; a failure's, only its start (a receiver may answer a lot)
                explanation = status >= 200 && status < 300 ? "" : explanation(in.readNBytes(MAX_EXPLANATION * 4));
            }
            return classify(status, explanation, retryAfter(res.headers().firstValue("Retry-After"), Instant.now()));
        } catch (HttpTimeoutException e) {
            return DeliveryResult.retryable("timed out (" + e.getMessage() + ")");
        } catch (IOException e) {
            return DeliveryResult.retryable("failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return DeliveryResult.retryable("interrupted");
        }
    }

    static DeliveryResult classify(int status) {
        return classify(status, "", null);
    }

    /**
     * What an answer means.
     *
     * @param explanation the start of the receiver's answer, or empty
     * @param retryAfter  the receiver's {@code Retry-After}, or null; kept for a 429 and a 503
     */
    static DeliveryResult classify(int status, String explanation, @Nullable Duration retryAfter) {
        if (status >= 200 && status < 300) return DeliveryResult.delivered();
        String detail = "HTTP " + status + (explanation.isEmpty() ? "" : ": " + explanation);
        if (status == 429 || status == 503) return DeliveryResult.retryable(detail, retryAfter);
        if (status == 408 || status >= 500) return DeliveryResult.retryable(detail);
        return DeliveryResult.permanent(detail);
    }

    /** The start of an answer's body as one line of text: control characters become spaces, at most {@value #MAX_EXPLANATION}. */
    static String explanation(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_EXPLANATION + 1));
        for (int i = 0; i < text.length() && out.length() < MAX_EXPLANATION; i++) {
            char c = text.charAt(i);
            out.append(Character.isISOControl(c) ? ' ' : c);
        }
        if (text.length() > MAX_EXPLANATION) out.append('\u2026');
        return out.toString();
    }

    /**
     * A {@code Retry-After} header: delay-seconds, or an HTTP date (RFC 9110); null if absent or
     * unreadable, zero for a date that has passed.
     */
    static @Nullable Duration retryAfter(Optional<String> header, Instant now) {
        if (header.isEmpty()) return null;
        String v = header.get().strip();
        if (v.isEmpty()) return null;
        if (v.chars().allMatch(Character::isDigit)) {
            try {
                return Duration.ofSeconds(Long.parseLong(v));
            } catch (NumberFormatException e) {
                return Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L);   // more digits than a long: as long as can be
            }
        }
        try {
            Duration d = Duration.between(now, ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            return d.isNegative() ? Duration.ZERO : d;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    URI url() {
        return url;
    }
}
