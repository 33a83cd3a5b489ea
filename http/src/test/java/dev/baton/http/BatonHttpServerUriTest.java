package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.memory.MemorySnapshotStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link BatonHttpServer#uri()} names the address bound, an IPv6 one in brackets once, however the builder was given it. */
class BatonHttpServerUriTest {

    @ParameterizedTest
    @CsvSource({"127.0.0.1, 127.0.0.1", "::1, [::1]", "[::1], [::1]"})
    void theUriNamesTheBoundAddress(String host, String inUri) throws Exception {
        try (var store = MemorySnapshotStore.create()) {
            BatonHttpApi api = BatonHttpApi.builder().agents(TestAgents.concierge("concierge", store, Clock.systemUTC()))
                    .authenticator(Authenticator.anonymous()).build();
            try (BatonHttpServer server = BatonHttpServer.builder(api).host(host).port(0).start()) {
                URI uri = server.uri();
                assertThat(uri.getHost()).isEqualTo(inUri);
                assertThat(uri).isEqualTo(URI.create("http://" + inUri + ":" + server.port() + "/"));
                HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri.resolve("openapi.json")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(page.statusCode()).isEqualTo(200);
            }
        }
    }
}
