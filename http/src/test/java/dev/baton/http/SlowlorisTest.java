package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.memory.MemorySnapshotStore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A bounded slowloris on 127.0.0.1: 200 connections held open for the whole attack (60 s by default;
 * the system property {@code baton.slowloris.seconds} shortens it, and nothing in the build does)
 * against a server of 16 threads, each connection sending one header byte a second; a connection the
 * server cuts is opened again at once, so 200 are dribbling at every moment. Meanwhile another
 * client's probes must keep being answered quickly, and every slow connection must be answered 408
 * ({@code request-timeout}) and cut once its headers are overdue (the request time, 6 s here). Bounded: 200 sockets at once, the attack's length.
 */
class SlowlorisTest {
    static final int ATTACKERS = 200;
    static final int SECONDS = Integer.getInteger("baton.slowloris.seconds", 60);

    @Test
    void twoHundredDribblingConnectionsDoNotSlowOtherClientsAndAreCutWhenTheirHeadersAreOverdue() throws Exception {
        try (var store = MemorySnapshotStore.create()) {
            BatonHttpApi api = BatonHttpApi.builder().agents(TestAgents.concierge("concierge", store, java.time.Clock.systemUTC()))
                    .authenticator(Authenticator.bearerTokens().token(TestServer.ADMIN, Principal.unrestricted("admin")).build()).build();
            try (BatonHttpServer server = BatonHttpServer.builder(api).port(0).threads(16).requestTimeout(Duration.ofSeconds(6)).start()) {
                attack(server);
            }
        }
    }

    /** One slow connection: its socket, when it was opened, how much of the header it sent. */
    private static final class Slow {
        final SocketChannel channel;
        final long opened = System.nanoTime();
        final StringBuilder answer = new StringBuilder();
        int sent;

        Slow(int port) throws IOException {
            channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
            channel.configureBlocking(false);
        }

        /** Sends the next byte; false if the server closed the connection. */
        boolean dribble(byte[] head) {
            try {
                ByteBuffer in = ByteBuffer.allocate(512);
                int n = channel.read(in);
                if (n < 0) return false;   // closed by the server
                answer.append(new String(in.array(), 0, n, StandardCharsets.ISO_8859_1));
                if (sent < head.length) channel.write(ByteBuffer.wrap(head, sent++, 1));
                return true;
            } catch (IOException reset) {
                return false;
            }
        }
    }

    private static void attack(BatonHttpServer server) throws Exception {
        byte[] head = ("GET /agents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TestServer.ADMIN + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        assertThat(head.length).as("the header must outlast the attack at a byte a second").isGreaterThan(Math.min(SECONDS, 80));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest probe = HttpRequest.newBuilder(server.uri().resolve("agents"))
                .header("Authorization", "Bearer " + TestServer.ADMIN).build();
        for (int i = 0; i < 20; i++) http.send(probe, HttpResponse.BodyHandlers.discarding());   // warm up

        List<Slow> slow = new ArrayList<>();
        for (int i = 0; i < ATTACKERS; i++) slow.add(new Slow(server.port()));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong cuts = new AtomicLong();
        AtomicLong longestMillis = new AtomicLong();
        AtomicLong timedOut = new AtomicLong();
        java.util.concurrent.atomic.AtomicReference<String> wrong = new java.util.concurrent.atomic.AtomicReference<>();
        List<Throwable> failed = Collections.synchronizedList(new ArrayList<>());
        // the attacker: one byte on one connection every 5 ms, so each of the 200 gets a byte a second
        Thread attacker = new Thread(() -> {
            try {
                while (!stop.get()) {
                    for (int i = 0; i < ATTACKERS && !stop.get(); i++) {
                        Slow s = slow.get(i);
                        if (!s.dribble(head)) {
                            cuts.incrementAndGet();
                            String a = s.answer.toString();
                            if (a.startsWith("HTTP/1.1 408 ") && a.contains("urn:baton:problem:request-timeout")) timedOut.incrementAndGet();
                            else if (!a.isEmpty()) wrong.compareAndSet(null, a);
                            longestMillis.accumulateAndGet((System.nanoTime() - s.opened) / 1_000_000, Math::max);
                            s.channel.close();
                            slow.set(i, new Slow(server.port()));   // and again: 200 connections at every moment
                        }
                        LockSupport.parkNanos(5_000_000);
                    }
                }
            } catch (Throwable e) {
                failed.add(e);
            }
        }, "slowloris");
        attacker.start();
        List<Long> micros = new ArrayList<>();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(SECONDS).toNanos();
            while (System.nanoTime() < deadline) {
                long began = System.nanoTime();
                HttpResponse<Void> r = http.send(probe, HttpResponse.BodyHandlers.discarding());
                micros.add((System.nanoTime() - began) / 1_000);
                assertThat(r.statusCode()).isEqualTo(200);
                Thread.sleep(20);
            }
        } finally {
            stop.set(true);
            attacker.join();
            for (Slow s : slow) s.channel.close();
        }
        assertThat(failed).as("the attacker could always open its connections").isEmpty();
        assertThat(wrong.get()).as("a slow connection's answer, if any, is the 408 problem").isNull();
        assertThat(timedOut.get()).as("cut connections answered 408 request-timeout first").isEqualTo(cuts.get());
        Collections.sort(micros);
        long p99 = micros.get((int) Math.ceil(micros.size() * 0.99) - 1);
        System.out.printf("slowloris: %d connections for %d s, %d cut (the longest open %d ms); %d probes, p50 %d µs, p99 %d µs, max %d µs%n",
                ATTACKERS, SECONDS, cuts.get(), longestMillis.get(), micros.size(), micros.get(micros.size() / 2), p99,
                micros.get(micros.size() - 1));
        assertThat(micros.size()).as("probes answered meanwhile").isGreaterThan(SECONDS * 8);
        assertThat(p99).as("p99 of %s probes, in µs", micros.size()).isLessThan(100_000L);
        // cut 6 to 7.5 s after its first byte (the deadline is checked four times per request time); the first byte goes
        // within a round of the attacker (1 s) and a cut is seen within the next: about 10 s at most, 15 s under load
        assertThat(cuts.get()).as("slow connections cut, each at most 15 s after it opened").isGreaterThanOrEqualTo((long) ATTACKERS * (SECONDS / 15));
        assertThat(longestMillis.get()).as("the longest a slow connection stayed open, in ms").isBetween(5_000L, 15_000L);
    }
}
