package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.memory.MemorySnapshotStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A bounded slowloris on 127.0.0.1: 200 connections, against a server of 16 threads, each sending
 * one header byte a second, while another client's probes keep being answered quickly; the
 * connections are cut once their headers are overdue. Bounded: 200 sockets, about 12 s.
 */
class SlowlorisTest {
    static final int ATTACKERS = 200;

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

    private static void attack(BatonHttpServer server) throws Exception {
        byte[] head = ("GET /agents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TestServer.ADMIN + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest probe = HttpRequest.newBuilder(server.uri().resolve("agents"))
                .header("Authorization", "Bearer " + TestServer.ADMIN).build();
        for (int i = 0; i < 20; i++) http.send(probe, HttpResponse.BodyHandlers.discarding());   // warm up

        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < ATTACKERS; i++) {
                Socket s = new Socket("127.0.0.1", server.port());
                s.setSoTimeout(1);
                slow.add(s);
            }
            List<Long> micros = new ArrayList<>();
            boolean[] cut = new boolean[ATTACKERS];
            AtomicBoolean stop = new AtomicBoolean();
            // the attacker: one byte on one connection every 5 ms, so each of the 200 gets a byte a second
            Thread attacker = new Thread(() -> {
                int[] sent = new int[ATTACKERS];
                while (!stop.get()) {
                    for (int i = 0; i < ATTACKERS && !stop.get(); i++) {
                        if (!cut[i] && sent[i] < head.length) {
                            try {
                                slow.get(i).getOutputStream().write(head[sent[i]++]);
                            } catch (IOException closed) {
                                cut[i] = true;
                            }
                        }
                        LockSupport.parkNanos(5_000_000);
                    }
                }
            }, "slowloris");
            attacker.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(12).toNanos();
            try {
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
            }
            for (int i = 0; i < ATTACKERS; i++) cut[i] = cut[i] || closedByServer(slow.get(i));
            Collections.sort(micros);
            long p99 = micros.get((int) Math.ceil(micros.size() * 0.99) - 1);
            System.out.printf("slowloris: %d probes, p50 %d µs, p99 %d µs, max %d µs%n", micros.size(),
                micros.get(micros.size() / 2), p99, micros.get(micros.size() - 1));
        assertThat(micros.size()).as("probes answered meanwhile").isGreaterThan(100);
            assertThat(p99).as("p99 of %s probes, in µs", micros.size()).isLessThan(100_000L);
            int cutCount = 0;
            for (boolean c : cut) if (c) cutCount++;
            assertThat(cutCount).as("slow connections cut once their headers were 6 s overdue").isEqualTo(ATTACKERS);
        } finally {
            for (Socket s : slow) s.close();
        }
    }

    /** True if the server closed the connection (end of stream or reset), false if it is still open. */
    private static boolean closedByServer(Socket s) {
        try {
            InputStream in = s.getInputStream();
            return in.read() < 0;
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
