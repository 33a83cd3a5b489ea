package dev.baton.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Requests written byte for byte on a socket: for what an HTTP client library refuses to send or
 * rewrites (a {@code ..} segment, a lying {@code Content-Length}, a body that never arrives).
 */
final class RawHttp {
    private RawHttp() {
    }

    /** A response as read off the socket (chunked bodies joined). */
    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        ApiClient.Response asApiResponse() {
            Map<String, java.util.List<String>> h = new LinkedHashMap<>();
            headers.forEach((k, v) -> h.put(k, java.util.List.of(v)));
            return new ApiClient.Response(status, h, body);
        }
    }

    /** Sends {@code head} (request line and headers, CRLF-separated, without the blank line) and {@code body}. */
    static Response send(int port, String head, byte[] body) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            return read(s.getInputStream());
        }
    }

    static Response get(int port, String rawTarget, String token) throws IOException {
        return send(port, "GET " + rawTarget + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token, new byte[0]);
    }

    static Response post(int port, String rawTarget, String token, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return send(port, "POST " + rawTarget + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: " + body.length, body);
    }

    static Response read(InputStream in) throws IOException {
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l = line(in); !l.isEmpty(); l = line(in)) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            for (int size = Integer.parseInt(line(in).trim(), 16); size > 0; size = Integer.parseInt(line(in).trim(), 16)) {
                body.write(in.readNBytes(size));
                line(in);
            }
        } else if (headers.containsKey("content-length")) {
            body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
        } else if (status != 204 && status != 304 && status >= 200) {
            body.write(in.readAllBytes());
        }
        return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) throw new IOException("connection closed in the middle of a line: " + b);
            if (c != '\r') b.write(c);
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
