package dev.baton.model.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ToolCall;
import dev.baton.tool.Tool;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.annotation.ToolParam;

/**
 * A Baton typed tool ({@code Tool.builder(..).input(Record.class)}) and Spring AI {@code @Tool}
 * methods in one agent, on the class path a Spring AI application gets without managing victools
 * (this module's pom manages none): Spring AI generates its schemas with its own victools (5 on
 * Spring AI 2, 4 on 1.1, at {@code com.github.victools}), Baton with the victools relocated inside
 * {@code baton-core}. Both schemas are generated, both tools are called in one run, and a typed
 * input that does not match is refused before anything runs. Before the relocation, on Spring AI 2,
 * the first {@code SpringAiTools.from(..)} failed with {@code NoClassDefFoundError: JacksonSchemaModule}.
 */
class TypedToolsBesideSpringAiToolsTest {

    record Booking(@JsonPropertyDescription("IATA code of the destination") String to, int passengers, @Nullable String note) { }

    record Address(String street, String city) { }

    /** A Spring bean's tools, as an application has them. */
    static class OrderService {
        final AtomicInteger shipped = new AtomicInteger();

        @org.springframework.ai.tool.annotation.Tool(description = "Ships an order to an address")
        String ship(@ToolParam(description = "the order") String orderId, Address to) {
            shipped.incrementAndGet();
            return "shipping " + orderId + " to " + to.city();
        }
    }

    private final OrderService orders = new OrderService();
    private final AtomicInteger bookings = new AtomicInteger();

    private final Tool bookFlight = Tool.builder("bookFlight").description("Books a flight")
            .input(Booking.class)
            .execute((Booking in, dev.baton.tool.ToolContext ctx) -> {
                bookings.incrementAndGet();
                return Map.of("booked", in.to(), "seats", in.passengers());
            })
            .build();

    private List<Tool> tools() {
        List<Tool> all = new ArrayList<>(SpringAiTools.from(orders).build());
        all.add(bookFlight);
        return all;
    }

    /** Asks for {@code calls} in one answer, then says "ok". */
    private static LanguageModel calling(ToolCall... calls) {
        return request -> request.lastMessage() instanceof Message.User
                ? Stream.of(calls).map(ModelChunk.ToolCallRequest::new)
                : Stream.of(new ModelChunk.TextDelta("ok"));
    }

    private AgentResult run(ToolCall... calls) {
        return Agent.builder(Fixtures.uniqueAgentId()).model(calling(calls)).tools(tools()).build().generate("go");
    }

    private static Tool named(List<Tool> tools, String name) {
        return tools.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void bothSchemasAreGenerated_eachByItsOwnVictools() {
        List<Tool> tools = tools();

        JsonNode booking = named(tools, "bookFlight").inputSchema();
        assertThat(booking.path("properties").fieldNames()).toIterable().containsExactly("to", "passengers", "note");
        assertThat(booking.path("properties").path("to").path("description").asText()).isEqualTo("IATA code of the destination");
        assertThat(booking.path("properties").path("passengers").path("type").asText()).isEqualTo("integer");
        assertThat(booking.path("required")).extracting(JsonNode::asText).containsExactly("to", "passengers");

        JsonNode ship = named(tools, "ship").inputSchema();
        assertThat(ship.path("properties").fieldNames()).toIterable().containsExactlyInAnyOrder("orderId", "to");
        assertThat(ship.path("properties").path("orderId").path("description").asText()).isEqualTo("the order");
        assertThat(ship.path("properties").path("to").path("properties").fieldNames()).toIterable()
                .containsExactlyInAnyOrder("street", "city");
    }

    @Test
    void theClassPathHoldsSpringAisVictools_andBatonsIsTheRelocatedCopyInsideBatonCore() throws Exception {
        // Spring AI's, where Maven put it: 5.x (with JacksonSchemaModule, which victools 4 lacks) on Spring AI 2
        Class<?> springAis = Class.forName("com.github.victools.jsonschema.generator.SchemaGenerator");
        assertThat(location(springAis).getPath()).matches(".*/jsonschema-generator-\\d+\\.\\d+\\.\\d+\\.jar");
        if (SpringAiLine.MUTABLE_OPTIONS) {
            assertThat(location(springAis).getPath()).contains("/jsonschema-generator-5.");
            assertThat(Class.forName("com.github.victools.jsonschema.module.jackson.JacksonSchemaModule")).isNotNull();
        }
        // Baton's: inside baton-core (its jar, or target/classes in the reactor), under its own name
        Class<?> batons = Class.forName("dev.baton.internal.shaded.victools.jsonschema.generator.SchemaGenerator");
        assertThat(location(batons)).isEqualTo(location(Tool.class));
    }

    private static URL location(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    @Test
    void bothToolsAreCalledInOneRun() {
        AgentResult result = run(
                new ToolCall("call_1", "bookFlight", Fixtures.json("{'to':'LIS','passengers':2}")),
                new ToolCall("call_2", "ship", Fixtures.json("{'orderId':'A1','to':{'street':'Rua Augusta 1','city':'Lisboa'}}")));

        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult).map(e -> ((AgentEvent.ToolResult) e).result())
                .containsExactlyInAnyOrder(Fixtures.json("{'booked':'LIS','seats':2}"), Fixtures.JSON.getNodeFactory().textNode("shipping A1 to Lisboa"));
        assertThat(bookings).hasValue(1);
        assertThat(orders.shipped).hasValue(1);
    }

    @Test
    void aTypedInputThatDoesNotMatchIsRefusedBeforeAnythingRuns_theSpringAiToolBesideItStillRuns() {
        AgentResult result = run(
                new ToolCall("call_1", "bookFlight", Fixtures.json("{'to':'LIS','passengers':'two'}")),
                new ToolCall("call_2", "ship", Fixtures.json("{'orderId':'A1','to':{'street':'Rua Augusta 1','city':'Lisboa'}}")));

        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolError).map(e -> ((AgentEvent.ToolError) e).error())
                .containsExactly("Invalid arguments for bookFlight: field 'passengers' must be an integer, got \"two\"");
        assertThat(bookings).hasValue(0);
        assertThat(orders.shipped).hasValue(1);
    }
}
