package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * What a client can send that the container (Jetty, or Tomcat under Spring Boot: {@link HttpTarget})
 * may refuse before the servlet runs, or the servlet refuses: bad percent-escapes, over-long URIs and
 * headers, methods no route has, HTTP/0.9 and garbage request lines. Every answer is Baton's problem
 * document with its security headers, and the server goes on answering. Where the containers differ
 * only in the status (Tomcat answers an over-long header 400 where Jetty answers 431, ...), each
 * case lists the statuses it accepts.
 */
class ContainerRefusalTest {
    private static final String AUTH = "Authorization: Bearer " + TestServer.ADMIN + "\r\nConnection: close\r\n";

    @Test
    void everyRefusalIsAProblemDocumentWithTheSecurityHeaders() throws Exception {
        try (TestServer t = new TestServer()) {
            SoftAssertions soft = new SoftAssertions();
            String host = "Host: 127.0.0.1:" + t.port() + "\r\n";
            check(soft, t, "a bad escape", get("/agents/concierge/suspended-runs%zz", host), Set.of(400), true);
            check(soft, t, "a % at the end", get("/agents/concierge/suspended-runs%", host), Set.of(400), true);
            check(soft, t, "%00 in an id", get("/agents/x%00/suspended-runs", host), Set.of(400), true);
            check(soft, t, "a URI over 8 KiB", get("/agents/" + "x".repeat(9_000) + "/suspended-runs", host), Set.of(414, 400), true);
            check(soft, t, "a header over 8 KiB", "GET /agents HTTP/1.1\r\n" + host + AUTH + "X-Big: " + "y".repeat(9_000) + "\r\n\r\n",
                    Set.of(431, 400), true);
            for (String method : new String[] {"TRACE", "PATCH", "FOO", "OPTIONS", "DELETE", "PUT"}) {
                check(soft, t, method, method + " /agents HTTP/1.1\r\n" + host + AUTH + "Content-Length: 0\r\n\r\n", Set.of(405), true);
            }
            check(soft, t, "HEAD", "HEAD /agents HTTP/1.1\r\n" + host + AUTH + "\r\n", Set.of(405), false);
            check(soft, t, "an HTTP/0.9 request", "GET /agents\r\n\r\n", Set.of(505), true);
            check(soft, t, "a garbage request line", "hello world\r\n\r\n", Set.of(505), true);
            check(soft, t, "an unknown HTTP version", "GET /agents HTTP/7.3\r\n" + host + "\r\n", Set.of(505), true);
            check(soft, t, "an HTTP/2.0 request line", "GET /agents HTTP/2.0\r\n" + host + "\r\n", Set.of(426, 505), true);
            check(soft, t, "HTTP/1.1 without Host", "GET /agents HTTP/1.1\r\n" + AUTH + "\r\n", Set.of(400), true);
            check(soft, t, "a space in the target", "GET /agents x HTTP/1.1\r\n" + host + AUTH + "\r\n", Set.of(400, 505), true);
            soft.assertAll();
            assertThat(t.admin().get("/agents").status()).as("and the server still answers").isEqualTo(200);
        }
    }

    private static String get(String target, String host) {
        return "GET " + target + " HTTP/1.1\r\n" + host + AUTH + "\r\n";
    }

    /** Sends {@code request} as it is on a new connection, reads the answer to its end, checks it. */
    private static void check(SoftAssertions soft, TestServer t, String what, String request, Set<Integer> statuses, boolean body)
            throws IOException {
        String answer = exchange(t.port(), request);
        int split = answer.indexOf("\r\n\r\n");
        String head = split < 0 ? answer : answer.substring(0, split);
        String text = split < 0 ? "" : answer.substring(split + 4);
        String lower = head.toLowerCase(Locale.ROOT);
        String as = what + " on " + HttpTarget.current().name() + ":\n" + answer;
        soft.assertThat(head).as(as).matches("(?s)HTTP/1\\.1 \\d{3}.*");
        int status = head.length() >= 12 && head.startsWith("HTTP/1.1 ") ? Integer.parseInt(head.substring(9, 12)) : -1;
        soft.assertThat(statuses).as(as).contains(status);
        System.out.printf("%s on %s: %d%n", what, HttpTarget.current().name(), status);
        soft.assertThat(lower).as(as).contains("content-type: application/problem+json")
                .contains("x-content-type-options: nosniff").contains("cache-control: no-store")
                .contains("x-frame-options: deny").contains("referrer-policy: no-referrer").doesNotContain("\nserver:");
        if (body) {
            soft.assertThat(text).as(as).contains("\"type\":\"urn:baton:problem:").contains("\"status\":" + status)
                    .doesNotContain("<html");
            if (status != 400) soft.assertThat(text).as(as).doesNotContain("problem:bad-request");   // a type of its own status
        } else {
            soft.assertThat(text).as(as + " (no body for HEAD)").isEmpty();
        }
    }

    private static String exchange(int port, String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(3_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) got.write(buf, 0, n);
            } catch (SocketTimeoutException kept) {
                // a connection kept open after its answer: what came is the answer
            } catch (IOException reset) {
                // closed by the server with unread bytes of ours: what came is the answer
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
