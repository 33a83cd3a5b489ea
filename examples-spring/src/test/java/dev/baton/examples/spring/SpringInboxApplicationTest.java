package dev.baton.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The sample application starts, its inbox lists the sample runs, and one is approved over HTTP. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.datasource.url=jdbc:h2:mem:spring-inbox-test;DB_CLOSE_DELAY=-1")
class SpringInboxApplicationTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    int port;

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) b.header("Content-Type", "application/json");
        return HTTP.send(b.header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theInboxListsTheSampleRunsAndApprovesOne() throws Exception {
        assertThat(send("GET", "/baton/", null).body()).contains("inbox.js");
        JsonNode list = JSON.readTree(send("GET", "/baton/agents/concierge/suspended-runs", null).body());
        assertThat(list.path("total").asInt()).isEqualTo(3);

        JsonNode run = list.path("runs").get(0);
        String call = run.path("toolCalls").get(0).path("toolCallId").asText();
        HttpResponse<String> approved = send("POST", "/baton/agents/concierge/runs/" + run.path("runId").asText() + "/approve",
                "{\"toolCallId\":\"" + call + "\"}");
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(JSON.readTree(approved.body()).path("outcome").asText()).isEqualTo("COMPLETED");

        assertThat(JSON.readTree(send("GET", "/baton/agents/concierge/suspended-runs", null).body()).path("total").asInt()).isEqualTo(2);
        assertThat(send("GET", "/actuator/health", null).body()).contains("batonStore");
        assertThat(send("GET", "/actuator/metrics/baton.resume", null).statusCode()).isEqualTo(200);
    }
}
