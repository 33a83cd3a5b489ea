package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.memory.MemorySnapshotStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Slow clients on 127.0.0.1: one that dribbles its request is cut off within the request time, and
 * does not hold up anyone else meanwhile. Loops are bounded in count and time.
 */
class SlowClientTest {

    /**
     * Sends {@code request} one byte per {@code pace}, at most {@code maxBytes} bytes, reading between
     * bytes; returns the milliseconds until the server closed the connection (after a 408 problem, the
     * only answer allowed), or -1 if it never did.
     */
    static long dribble(int port, String request, Duration pace, int maxBytes, Runnable meanwhile) throws IOException {
        byte[] bytes = request.getBytes(StandardCharsets.US_ASCII);
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout((int) pace.toMillis());
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            long start = System.nanoTime();
            for (int i = 0; i < Math.min(maxBytes, bytes.length); i++) {
                try {
                    out.write(bytes[i]);
                    out.flush();
                } catch (SocketException closed) {
                    return (System.nanoTime() - start) / 1_000_000;
                }
                if (i == 1) meanwhile.run();
                try {
                    int b = in.read();   // waits one pace: the server may answer or close meanwhile
                    if (b < 0) return (System.nanoTime() - start) / 1_000_000;
                    long at = (System.nanoTime() - start) / 1_000_000;
                    s.setSoTimeout(5_000);
                    String answer = (char) b + new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);   // then closed
                    if (!answer.startsWith("HTTP/1.1 408 ") || !answer.contains("urn:baton:problem:request-timeout")) {
                        throw new AssertionError("the server answered a request it had not read with other than 408: " + answer);
                    }
                    return at;
                } catch (SocketTimeoutException stillOpen) {
                    // next byte
                } catch (SocketException reset) {
                    return (System.nanoTime() - start) / 1_000_000;
                }
            }
            return -1;
        }
    }

    @Test
    void aClientDribblingItsHeadersIsCutOffWithinTheRequestTimeAndOthersAreServedMeanwhile() throws IOException {
        try (TestServer t = new TestServer(MemorySnapshotStore.create(), 1024, Duration.ofSeconds(2))) {
            int[] served = new int[1];
            String head = "GET /agents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TestServer.ADMIN + "\r\n\r\n";
            long closedAfter = dribble(t.port(), head, Duration.ofSeconds(1), 8,
                    () -> served[0] = t.admin().get("/agents").status());
            assertThat(closedAfter).as("closed within the 2 s request time (a byte a second, 8 s at most)").isBetween(1_500L, 4_500L);
            assertThat(served[0]).as("a normal client, while the slow one dribbled").isEqualTo(200);
            assertThat(t.admin().get("/agents").status()).as("and after").isEqualTo(200);
        }
    }

    @Test
    void theHeaderTimeIsPerServer() throws IOException {
        try (TestServer slow = new TestServer(MemorySnapshotStore.create(), 1024, Duration.ofMillis(1_200));
             TestServer patient = new TestServer(MemorySnapshotStore.create(), 1024, Duration.ofSeconds(30))) {
            String head = "GET /agents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TestServer.ADMIN + "\r\n\r\n";
            assertThat(dribble(slow.port(), head, Duration.ofMillis(400), 12, () -> { })).isBetween(800L, 4_000L);
            // the same dribble, all 12 bytes (4.8 s), is still being read by a server with 30 s
            assertThat(dribble(patient.port(), head, Duration.ofMillis(400), 12, () -> { })).isEqualTo(-1L);
        }
    }
}
