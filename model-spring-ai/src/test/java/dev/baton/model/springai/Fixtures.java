package dev.baton.model.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** Tools, ids and JSON shared by the tests. */
final class Fixtures {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String INSTRUCTIONS = "You help with travel.";

    private Fixtures() {
    }

    /** Books a flight; every call waits for approval. */
    static Tool bookFlight(AtomicInteger bookings) {
        return Tool.builder("bookFlight").description("Books a flight")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"},\"passengers\":{\"type\":\"integer\"}},"
                        + "\"required\":[\"to\",\"passengers\"]}")
                .requireApproval(true)
                .execute((JsonNode in, ToolContext ctx) -> {
                    bookings.incrementAndGet();
                    return Map.of("booked", in.path("to").asText(), "seats", in.path("passengers").asInt());
                })
                .build();
    }

    static Tool getWeather(AtomicInteger lookups) {
        return Tool.builder("getWeather").description("Current weather of a city")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}")
                .execute((JsonNode in, ToolContext ctx) -> {
                    lookups.incrementAndGet();
                    return Map.of("city", in.path("city").asText(), "sky", "sunny");
                })
                .build();
    }

    static String uniqueAgentId() {
        return "spring-ai-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static JsonNode json(String singleQuoted) {
        try {
            return JSON.readTree(singleQuoted.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static List<String> textDeltas(List<AgentEvent> events) {
        List<String> out = new ArrayList<>();
        for (AgentEvent e : events) if (e instanceof AgentEvent.TextDelta d) out.add(d.text());
        return out;
    }

    static String errorMessage(AgentResult result) {
        return result.error() == null ? "" : result.error().getMessage();
    }
}
