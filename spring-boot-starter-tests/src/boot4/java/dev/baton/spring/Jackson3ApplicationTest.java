package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.http.BatonHttpApi;
import dev.baton.http.ServletCall;
import dev.baton.http.ServletCall.Answer;
import dev.baton.model.langchain4j.LangChain4jModel;
import dev.baton.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON on Spring Boot 4: an application whose JSON is Jackson 3 (Boot 4's default, {@code spring-boot-jackson},
 * {@code tools.jackson}) and has no Jackson 2 mapper of its own. Baton keeps its own Jackson 2 (brought by
 * baton-core, at the version Boot's BOM manages); the starter, the HTTP API and a model bridge (LangChain4j, itself on
 * Jackson 2) work beside it, and a tool written against the application's Jackson 3 reads its input with one call.
 */
class Jackson3ApplicationTest {

    /** A LangChain4j chat model that asks for bookFlight, then answers from the tool's result. */
    static final class BookingChatModel implements ChatModel {
        @Override
        public ChatResponse doChat(ChatRequest request) {
            if (request.messages().get(request.messages().size() - 1) instanceof ToolExecutionResultMessage result) {
                return ChatResponse.builder().aiMessage(AiMessage.from("Done: " + result.text())).build();
            }
            return ChatResponse.builder().aiMessage(AiMessage.from(ToolExecutionRequest.builder()
                    .id("call_1").name("bookFlight").arguments("{\"to\":\"Lisbon\",\"seats\":2}").build())).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Agent concierge(BatonAgents baton, JsonMapper json) {
            return baton.agent("concierge")
                    .instructions("You book flights.")
                    .model(LangChain4jModel.of(new BookingChatModel()))
                    .tools(Tool.builder("bookFlight").description("Books a flight").requireApproval(true)
                            .execute((input, ctx) -> {
                                // a tool written against the application's Jackson 3: Baton's Jackson 2 input, read once
                                JsonNode in = json.readTree(input.toString());
                                return Map.of("booked", in.get("to").asString(), "seats", in.get("seats").asInt());
                            }).build())
                    .build();
        }
    }

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BootLine.load("org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")))
            .withConfiguration(BootLine.baton())
            .withUserConfiguration(App.class)
            .withPropertyValues("baton.http.enabled=true", "baton.http.anonymous=true");

    private static Answer call(BatonHttpApi api, String method, String path, String body) {
        return ServletCall.send(api, method, path, Map.of("Host", "localhost", "Content-Type", "application/json",
                "Accept", "application/json"), body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theStarterTheHttpApiAndALangChain4jModelWorkInAnApplicationWhoseJsonIsJackson3() {
        runner.run(ctx -> {
            assertThat(ctx).hasSingleBean(JsonMapper.class).doesNotHaveBean(com.fasterxml.jackson.databind.ObjectMapper.class);
            assertThat(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.getMajorVersion())
                    .as("Baton's own JSON, Jackson 2, at the version Spring Boot %s manages", BootLine.version()).isEqualTo(2);

            Agent agent = ctx.getBean(Agent.class);
            AgentResult run = agent.generate("Book a flight to Lisbon", RunOptions.builder().resourceId("alice").build());
            assertThat(run.outcome()).isEqualTo(RunOutcome.SUSPENDED);

            BatonHttpApi api = ctx.getBean(BatonHttpApi.class);
            Answer listed = call(api, "GET", "/agents/concierge/suspended-runs", "");
            String listing = listed.text();
            assertThat(listed.status()).as(listing).isEqualTo(200);
            assertThat(listing).contains(run.runId(), "\"toolName\":\"bookFlight\"", "\"seats\":2");

            Answer approved = call(api, "POST", "/agents/concierge/runs/" + run.runId() + "/approve",
                    "{\"toolCallId\":\"" + run.waitingCalls().get(0).toolCallId() + "\"}");
            String events = approved.text();
            assertThat(approved.status()).as(events).isEqualTo(200);
            assertThat(events).contains("\"booked\":\"Lisbon\"", "\"seats\":2", "\"outcome\":\"COMPLETED\"", "Done: ");
        });
    }
}
