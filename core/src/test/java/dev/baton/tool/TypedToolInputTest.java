package dev.baton.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.baton.model.ToolCall;
import dev.baton.store.FakeProviders.FakeStore;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** A tool's input declared as a Java type: the schema the model sees, and the checks its arguments pass. */
class TypedToolInputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    enum Cabin { ECONOMY, BUSINESS }

    record Leg(String from, String to, LocalDate date) { }

    @JsonClassDescription("A flight booking")
    record Flight(@JsonPropertyDescription("IATA code of the destination") String to,
                  int passengers,
                  double budget,
                  boolean refundable,
                  Cabin cabin,
                  List<Leg> legs,
                  List<String> tags,
                  @Nullable String note,
                  Optional<Integer> seats) { }

    record Booking(String to, int passengers) { }

    record Positive(int count) {
        Positive {
            if (count < 1) throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
    }

    record Renamed(@JsonProperty("from_city") String fromCity) { }

    /** A plain class with fields, not a record. */
    static final class Order {
        public String item;
        public int quantity;
        public @Nullable String coupon;
        @JsonIgnore public String internalNote;
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Tool bookingTool(AtomicInteger runs) {
        return Tool.builder("bookFlight")
                .input(Booking.class)
                .execute((Booking in, ToolContext ctx) -> {
                    runs.incrementAndGet();
                    return Map.of("booked", in.to(), "passengers", in.passengers());
                })
                .build();
    }

    private static Object run(Tool tool, JsonNode args) throws Exception {
        return tool.executor().execute(args, new FixedContext());
    }

    @Nested
    class Schema {

        @Test
        void isGeneratedFromTheRecordsComponentsWithTheirJsonTypes() {
            JsonNode schema = Tool.builder("bookFlight").input(Flight.class).execute((in, ctx) -> null).build().inputSchema();

            assertThat(schema.path("type").asText()).isEqualTo("object");
            JsonNode p = schema.path("properties");
            assertThat(p.path("to").path("type").asText()).isEqualTo("string");
            assertThat(p.path("passengers").path("type").asText()).isEqualTo("integer");
            assertThat(p.path("budget").path("type").asText()).isEqualTo("number");
            assertThat(p.path("refundable").path("type").asText()).isEqualTo("boolean");
            assertThat(p.path("cabin").path("enum")).containsExactly(json("'ECONOMY'"), json("'BUSINESS'"));
            assertThat(p.path("tags").path("type").asText()).isEqualTo("array");
            assertThat(p.path("tags").path("items").path("type").asText()).isEqualTo("string");
            JsonNode leg = p.path("legs").path("items");
            assertThat(leg.path("type").asText()).isEqualTo("object");
            assertThat(leg.path("properties").path("date").path("type").asText()).isEqualTo("string");
            assertThat(leg.path("required")).containsExactlyInAnyOrder(json("'from'"), json("'to'"), json("'date'"));
        }

        @Test
        void everyFieldIsRequiredExceptOptionalAndNullableOnes() {
            JsonNode schema = Tool.builder("bookFlight").input(Flight.class).execute((in, ctx) -> null).build().inputSchema();

            List<String> required = new ArrayList<>();
            schema.path("required").forEach(r -> required.add(r.asText()));
            assertThat(required).containsExactlyInAnyOrder("to", "passengers", "budget", "refundable", "cabin", "legs", "tags");
            assertThat(schema.path("properties").has("note")).isTrue();
            assertThat(schema.path("properties").path("seats").path("type")).containsExactly(json("'integer'"), json("'null'"));
        }

        @Test
        void jacksonAnnotationsNameAndDescribeFields() {
            JsonNode flight = Tool.builder("bookFlight").input(Flight.class).execute((in, ctx) -> null).build().inputSchema();
            JsonNode renamed = Tool.builder("t").input(Renamed.class).execute((in, ctx) -> null).build().inputSchema();

            assertThat(flight.path("description").asText()).isEqualTo("A flight booking");
            assertThat(flight.path("properties").path("to").path("description").asText()).isEqualTo("IATA code of the destination");
            assertThat(renamed.path("properties").fieldNames()).toIterable().containsExactly("from_city");
            assertThat(renamed.path("required")).containsExactly(json("'from_city'"));
        }

        @Test
        void listsFieldsInTheirDeclaredOrder() {
            JsonNode schema = Tool.builder("bookFlight").input(Flight.class).execute((in, ctx) -> null).build().inputSchema();

            assertThat(schema.path("properties").fieldNames()).toIterable()
                    .containsExactly("to", "passengers", "budget", "refundable", "cabin", "legs", "tags", "note", "seats");
        }

        @Test
        void plainClassesWithFieldsWorkLikeRecords() {
            JsonNode schema = Tool.builder("order").input(Order.class).execute((in, ctx) -> null).build().inputSchema();

            // @JsonIgnore hides a field from the model as it does from binding
            assertThat(schema.path("properties").fieldNames()).toIterable().containsExactlyInAnyOrder("item", "quantity", "coupon");
            assertThat(schema.path("required")).containsExactlyInAnyOrder(json("'item'"), json("'quantity'"));
        }

        @Test
        void isWhatTheModelIsGivenAndCarriesNoVersionMarker() {
            Tool tool = Tool.builder("bookFlight").description("Books").input(Booking.class).execute((in, ctx) -> null).build();

            assertThat(tool.definition().inputSchema()).isEqualTo(tool.inputSchema());
            assertThat(tool.definition().description()).isEqualTo("Books");
            assertThat(tool.inputSchema().has("$schema")).isFalse();
        }

        @Test
        void aTypeWhoseSchemaIsNotAnObjectIsRefusedWhenTheToolIsBuilt() {
            assertThatThrownBy(() -> Tool.builder("echo").input(String.class))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("tool 'echo' needs an object as input");
        }
    }

    @Nested
    class Arguments {

        @Test
        void aMissingRequiredFieldIsNamedAndTheToolDoesNotRun() {
            AtomicInteger runs = new AtomicInteger();

            assertThatThrownBy(() -> run(bookingTool(runs), json("{'passengers':2}")))
                    .isInstanceOf(InvalidToolInputException.class)
                    .hasMessage("Invalid arguments for bookFlight: field 'to' is required");
            assertThat(runs).hasValue(0);
        }

        @Test
        void aFieldOfTheWrongTypeIsNamedWithWhatWasExpectedAndWhatCame() {
            AtomicInteger runs = new AtomicInteger();

            assertThatThrownBy(() -> run(bookingTool(runs), json("{'to':'SFO','passengers':'two'}")))
                    .hasMessage("Invalid arguments for bookFlight: field 'passengers' must be an integer, got \"two\"");
            assertThat(runs).hasValue(0);
        }

        @Test
        void aNumberInAStringIsNotCoercedIntoAnInteger() {
            assertThatThrownBy(() -> run(bookingTool(new AtomicInteger()), json("{'to':'SFO','passengers':'2'}")))
                    .hasMessageContaining("field 'passengers' must be an integer");
        }

        @Test
        void aFractionIsNotAnIntegerButAWholeDecimalIs() throws Exception {
            assertThatThrownBy(() -> run(bookingTool(new AtomicInteger()), json("{'to':'SFO','passengers':2.5}")))
                    .hasMessageContaining("field 'passengers' must be an integer, got 2.5");
            assertThat(run(bookingTool(new AtomicInteger()), json("{'to':'SFO','passengers':2.0}")))
                    .isEqualTo(Map.of("booked", "SFO", "passengers", 2));
        }

        @Test
        void nullForARequiredFieldCountsAsMissing() {
            assertThatThrownBy(() -> run(bookingTool(new AtomicInteger()), json("{'to':null,'passengers':1}")))
                    .hasMessage("Invalid arguments for bookFlight: field 'to' is required");
        }

        @Test
        void everyProblemIsReportedAtOnce() {
            assertThatThrownBy(() -> run(bookingTool(new AtomicInteger()), json("{'passengers':true}")))
                    .isInstanceOfSatisfying(InvalidToolInputException.class, e -> {
                        assertThat(e.toolName()).isEqualTo("bookFlight");
                        assertThat(e.problems()).containsExactly("field 'to' is required",
                                "field 'passengers' must be an integer, got true");
                    });
        }

        @Test
        void nestedFieldsAreNamedByTheirPath() {
            Tool tool = Tool.builder("bookFlight").input(Flight.class).execute((in, ctx) -> "ok").build();
            JsonNode args = json("{'to':'SFO','passengers':1,'budget':100,'refundable':false,'cabin':'ECONOMY','tags':[],"
                    + "'legs':[{'from':'CDG','to':'SFO','date':'2030-01-01'},{'to':'CDG','date':'2030-01-09'}]}");

            assertThatThrownBy(() -> run(tool, args))
                    .hasMessage("Invalid arguments for bookFlight: field 'legs[1].from' is required");
        }

        @Test
        void aValueOutsideAnEnumIsNamedWithTheAllowedValues() {
            Tool tool = Tool.builder("bookFlight").input(Flight.class).execute((in, ctx) -> "ok").build();
            JsonNode args = json("{'to':'SFO','passengers':1,'budget':100,'refundable':false,'cabin':'FIRST','tags':[],'legs':[]}");

            assertThatThrownBy(() -> run(tool, args))
                    .hasMessage("Invalid arguments for bookFlight: field 'cabin' must be one of [\"ECONOMY\",\"BUSINESS\"], got \"FIRST\"");
        }

        @Test
        void aBadlyFormattedValueIsNamedByJacksonsPath() {
            Tool tool = Tool.builder("bookFlight").input(Flight.class).execute((in, ctx) -> "ok").build();
            JsonNode args = json("{'to':'SFO','passengers':1,'budget':100,'refundable':false,'cabin':'ECONOMY','tags':[],"
                    + "'legs':[{'from':'CDG','to':'SFO','date':'next tuesday'}]}");

            assertThatThrownBy(() -> run(tool, args))
                    .hasMessageStartingWith("Invalid arguments for bookFlight: field 'legs[0].date' has an invalid value next tuesday");
        }

        @Test
        void argumentsThatAreNotAnObjectAreRefused() {
            assertThatThrownBy(() -> run(bookingTool(new AtomicInteger()), json("'{not json'")))
                    .hasMessage("Invalid arguments for bookFlight: expected a JSON object, got \"{not json\"");
        }

        @Test
        void theTypesOwnValidationIsReportedToTheModel() {
            Tool tool = Tool.builder("count").input(Positive.class).execute((in, ctx) -> in.count()).build();

            assertThatThrownBy(() -> run(tool, json("{'count':0}")))
                    .hasMessageContaining("Invalid arguments for count:")
                    .hasMessageContaining("count must be at least 1, was 0");
        }

        @Test
        void optionalAndNullableFieldsMayBeAbsentAndUnknownFieldsAreIgnored() throws Exception {
            List<Flight> seen = new ArrayList<>();
            Tool tool = Tool.builder("bookFlight").input(Flight.class).execute((in, ctx) -> {
                seen.add(in);
                return "ok";
            }).build();

            run(tool, json("{'to':'SFO','passengers':1,'budget':99.5,'refundable':true,'cabin':'BUSINESS','tags':['x'],"
                    + "'legs':[{'from':'CDG','to':'SFO','date':'2030-01-01'}],'mood':'happy'}"));

            Flight in = seen.get(0);
            assertThat(in.note()).isNull();
            assertThat(in.seats()).isEmpty();
            assertThat(in.cabin()).isEqualTo(Cabin.BUSINESS);
            assertThat(in.legs().get(0).date()).isEqualTo(LocalDate.of(2030, 1, 1));
        }

        @Test
        void theToolReceivesTheParsedObjectAndItsContext() throws Exception {
            List<String> seen = new ArrayList<>();
            Tool tool = Tool.builder("order").input(Order.class).execute((Order in, ToolContext ctx) -> {
                seen.add(in.item + " x" + in.quantity + " for " + ctx.runId());
                return Map.of("ordered", in.quantity);
            }).build();

            Object result = run(tool, json("{'item':'pen','quantity':3}"));

            assertThat(result).isEqualTo(Map.of("ordered", 3));
            assertThat(seen).containsExactly("pen x3 for run-1");
        }
    }

    @Nested
    class Approval {

        @Test
        void aValidCallWaitsForApprovalAndAnInvalidOneFailsWithoutAskingAHuman() {
            Tool tool = Tool.builder("bookFlight").input(Booking.class).requireApproval(true).execute((in, ctx) -> "ok").build();

            assertThat(tool.requiresApproval(json("{'to':'SFO','passengers':1}"))).isTrue();
            assertThat(tool.requiresApproval(json("{'passengers':1}"))).isFalse();
        }

        @Test
        void aTypedPredicateSeesTheParsedInput() {
            Tool tool = Tool.builder("bookFlight").input(Booking.class)
                    .requireApproval((Booking b) -> b.passengers() > 2)
                    .execute((in, ctx) -> "ok").build();

            assertThat(tool.requiresApproval(json("{'to':'SFO','passengers':3}"))).isTrue();
            assertThat(tool.requiresApproval(json("{'to':'SFO','passengers':1}"))).isFalse();
        }

        @Test
        void aPredicateThatThrowsMeansApprovalIsRequired() {
            Tool tool = Tool.builder("bookFlight").input(Booking.class)
                    .requireApproval((Booking b) -> {
                        throw new IllegalStateException("boom");
                    })
                    .execute((in, ctx) -> "ok").build();

            assertThat(tool.requiresApproval(json("{'to':'SFO','passengers':3}"))).isTrue();
        }

        @Test
        void aJsonPredicateGivenBeforeTheInputTypeStillApplies() {
            Tool tool = Tool.builder("bookFlight").requireApproval(args -> args.path("to").asText().equals("SFO"))
                    .input(Booking.class).execute((in, ctx) -> "ok").build();

            assertThat(tool.requiresApproval(json("{'to':'SFO','passengers':1}"))).isTrue();
            assertThat(tool.requiresApproval(json("{'to':'CDG','passengers':1}"))).isFalse();
        }

        @Test
        void noApprovalIsTheDefault() {
            assertThat(bookingTool(new AtomicInteger()).requiresApproval(json("{'to':'SFO','passengers':1}"))).isFalse();
        }
    }

    @Nested
    class InARun {

        @Test
        void invalidArgumentsReachTheModelAsAToolErrorAndItsCorrectedCallRuns() {
            AtomicInteger runs = new AtomicInteger();
            List<Message.ToolResult> modelSaw = new ArrayList<>();
            DeterministicModel model = DeterministicModel.scripted((ModelRequest request) -> {
                if (request.lastMessage() instanceof Message.ToolResult r) modelSaw.add(r);
                return switch (request.completedSteps()) {
                    case 0 -> List.of(call("c1", "{'to':'SFO','passengers':'two'}"));
                    case 1 -> List.of(call("c2", "{'to':'SFO','passengers':2}"));
                    default -> List.of(new ModelChunk.TextDelta("Booked."));
                };
            });
            try (Agent agent = Agent.builder("typed").model(model).tools(bookingTool(runs))
                    .store(new FakeStore("fake:", Map.of())).build()) {

                AgentResult result = agent.generate("Book two seats to SFO");

                assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
                assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolError).singleElement()
                        .extracting(e -> ((AgentEvent.ToolError) e).error())
                        .isEqualTo("Invalid arguments for bookFlight: field 'passengers' must be an integer, got \"two\"");
                assertThat(modelSaw.get(0).isError()).isTrue();
                assertThat(modelSaw.get(0).result().asText()).contains("field 'passengers' must be an integer");
                assertThat(modelSaw.get(1).isError()).isFalse();
                assertThat(runs).hasValue(1);
                assertThat(result.text()).isEqualTo("Booked.");
            }
        }

        private static ModelChunk call(String id, String args) {
            return new ModelChunk.ToolCallRequest(new ToolCall(id, "bookFlight", json(args)));
        }
    }

    @Nested
    class JsonForm {

        @Test
        void theJsonNodeFormIsUnchanged() throws Exception {
            Tool tool = Tool.builder("raw")
                    .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"}}}")
                    .execute((input, ctx) -> Map.of("to", input.path("to").asText()))
                    .build();

            assertThat(tool.inputSchema()).isEqualTo(json("{'type':'object','properties':{'to':{'type':'string'}}}"));
            assertThat(run(tool, json("{'anything':1}"))).isEqualTo(Map.of("to", ""));
        }
    }

    /** A context for calling an executor directly. */
    private static final class FixedContext implements ToolContext {
        @Override public String agentId() { return "agent"; }
        @Override public String runId() { return "run-1"; }
        @Override public String toolCallId() { return "call-1"; }
        @Override public @Nullable String threadId() { return null; }
        @Override public @Nullable String resourceId() { return null; }
        @Override public Suspension suspend(@Nullable Object payload) { return Suspension.of(JSON.valueToTree(payload)); }
        @Override public @Nullable JsonNode resumeData() { return null; }
    }
}
