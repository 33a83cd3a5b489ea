package dev.baton.notify;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;

/**
 * One JSON POST and what its answer means: 2xx delivered; 408, 429 and 5xx retryable; any other
 * status (another 4xx, a redirect, which is not followed) permanent; a timeout or a failed
 * connection retryable.
 */
final class HttpPoster {
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
            HttpResponse<Void> res = client.send(req.build(), HttpResponse.BodyHandlers.discarding());
            return classify(res.statusCode());
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
        if (status >= 200 && status < 300) return DeliveryResult.delivered();
        if (status == 408 || status == 429 || status >= 500) return DeliveryResult.retryable("HTTP " + status);
        return DeliveryResult.permanent("HTTP " + status);
    }

    URI url() {
        return url;
    }
}
