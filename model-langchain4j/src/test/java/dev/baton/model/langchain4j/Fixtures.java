package dev.baton.model.langchain4j;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** Tools, stores and small helpers the adapter's tests share. */
final class Fixtures {
    static final String INSTRUCTIONS = "You help with travel.";

    private Fixtures() {
    }

    record Flight(@JsonPropertyDescription("IATA code of the destination") String to, int passengers) { }

    record City(String city) { }

    /** Books a flight; every call waits for approval. */
    static Tool bookFlight(AtomicInteger bookings) {
        return Tool.builder("bookFlight").description("Books a flight")
                .input(Flight.class)
                .requireApproval(true)
                .execute((Flight in, ToolContext ctx) -> {
                    bookings.incrementAndGet();
                    return Map.of("booked", in.to(), "passengers", in.passengers());
                })
                .build();
    }

    /** The weather of a city; runs without approval. */
    static Tool getWeather() {
        return Tool.builder("getWeather").description("Current weather of a city")
                .input(City.class)
                .execute((City in, ToolContext ctx) -> Map.of("city", in.city(), "tempC", 21))
                .build();
    }

    /** The schema the model must receive for {@link #bookFlight}. */
    static JsonNode bookFlightSchema() {
        return json("{'type':'object','properties':{'to':{'type':'string','description':'IATA code of the destination'},"
                + "'passengers':{'type':'integer'}},'required':['to','passengers']}");
    }

    static String uniqueAgentId() {
        return "lc4j-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A SQLite file under {@code target/}, shared by the module's tests (agent ids keep them apart). */
    static String sqliteUrl() {
        Path dir = Path.of("target", "test-databases", "sqlite");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "jdbc:sqlite:" + dir.resolve("baton.db").toAbsolutePath();
    }

    static SnapshotStore sqlite() {
        return SnapshotStores.open(sqliteUrl());
    }

    static JsonNode json(String singleQuoted) {
        try {
            return StubProvider.JSON.readTree(singleQuoted.replace('\'', '"'));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The message of the run's {@code error} event. */
    static String errorMessage(AgentResult result) {
        return result.events().stream().filter(e -> e instanceof AgentEvent.Error)
                .map(e -> ((AgentEvent.Error) e).message()).findFirst()
                .orElseThrow(() -> new AssertionError("no error event in " + result.eventTypes()));
    }

    static List<String> textDeltas(List<AgentEvent> events) {
        return events.stream().filter(e -> e instanceof AgentEvent.TextDelta).map(e -> ((AgentEvent.TextDelta) e).text()).toList();
    }
}
