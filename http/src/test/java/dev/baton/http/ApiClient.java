package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A client of a running server for tests. Every response is checked against {@code openapi.json}
 * ({@link OpenApiDocument#check}) and for the house rules: no stack trace, no cookie.
 */
final class ApiClient {
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final URI base;
    private final @Nullable String token;

    ApiClient(URI base, @Nullable String token) {
        this.base = base;
        this.token = token;
    }

    ApiClient as(@Nullable String otherToken) {
        return new ApiClient(base, otherToken);
    }

    /** A response, read whole. */
    record Response(int status, Map<String, List<String>> headers, String body) {
        @Nullable String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) return e.getValue().get(0);
            }
            return null;
        }

        @Nullable String contentType() {
            return header("Content-Type");
        }

        JsonNode json() {
            try {
                return OpenApiDocument.JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        /** The Server-Sent Events of the body, in order. */
        List<Event> events() {
            List<Event> out = new ArrayList<>();
            for (String block : body.split("\n\n")) {
                String name = "message";
                StringBuilder data = new StringBuilder();
                for (String line : block.split("\n")) {
                    if (line.startsWith("event: ")) name = line.substring(7);
                    else if (line.startsWith("data: ")) data.append(line.substring(6));
                }
                if (data.length() > 0) out.add(new Event(name, data.toString()));
            }
            return out;
        }

        List<String> eventNames() {
            return events().stream().map(Event::name).toList();
        }

        Event last() {
            List<Event> e = events();
            return e.get(e.size() - 1);
        }
    }

    /** One Server-Sent Event. */
    record Event(String name, String data) {
        JsonNode json() {
            try {
                return OpenApiDocument.JSON.readTree(data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    Response get(String rawPathAndQuery) {
        return send("GET", rawPathAndQuery, null, "application/json");
    }

    /** POST, events as Server-Sent Events (the default). */
    Response post(String rawPath, String json) {
        return send("POST", rawPath, json, "text/event-stream");
    }

    /** POST with {@code Accept: application/json}: the drained result. */
    Response postForJson(String rawPath, String json) {
        return send("POST", rawPath, json, "application/json");
    }

    /** DELETE, no body. */
    Response delete(String rawPath) {
        return send("DELETE", rawPath, null, null);
    }

    Response send(String method, String rawPathAndQuery, @Nullable String json, @Nullable String accept) {
        return send(method, rawPathAndQuery, json, accept, Map.of());
    }

    /** With extra request headers (e.g. {@code Idempotency-Key}). */
    Response send(String method, String rawPathAndQuery, @Nullable String json, @Nullable String accept, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(rawPathAndQuery.substring(1)))
                .timeout(Duration.ofSeconds(60))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null || method.equals("POST")) b.header("Content-Type", "application/json");   // as the inbox page does
        if (accept != null) b.header("Accept", accept);
        if (token != null) b.header("Authorization", "Bearer " + token);
        headers.forEach(b::header);
        return send(method, rawPathAndQuery, b.build());
    }

    Response send(String method, String rawPathAndQuery, HttpRequest request) {
        try {
            HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            Response response = new Response(r.statusCode(), r.headers().map(), r.body());
            check(method, rawPathAndQuery, response);
            return response;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void check(String method, String rawPathAndQuery, Response r) {
        assertThat(r.body()).as("no stack trace").doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(r.header("Set-Cookie")).as("no cookie").isNull();
        OpenApiDocument.get().check(method, rawPathAndQuery, r);
    }
}
