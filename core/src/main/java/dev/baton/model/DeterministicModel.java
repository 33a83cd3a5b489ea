package dev.baton.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A model that needs no network and always answers the same way: for tests, examples and demos.
 *
 * <p>Its rules:
 * <ul>
 *   <li>When the last message is the user's, it calls every tool whose keyword the message
 *       contains (case-insensitive), in rule order; with no matching rule it answers
 *       {@code "You said: <text>"}.</li>
 *   <li>When the last messages are tool results, it answers with one sentence per result,
 *       e.g. {@code "bookFlight: {\"booked\":true}"}, and stops.</li>
 * </ul>
 * Text is streamed word by word. Tool call ids are {@code call_<step>_<index>}, unique in a run.
 * Map arguments are written with their keys sorted, so the output is the same in every JVM.
 *
 * <pre>{@code
 * LanguageModel model = DeterministicModel.builder()
 *     .whenUserSays("weather", "getWeather", text -> Map.of("city", "Paris"))
 *     .whenUserSays("flight", "bookFlight", Map.of("to", "SFO"))
 *     .build();
 * }</pre>
 * For full control, {@link #scripted(Function)} answers each request with a function.
 */
public final class DeterministicModel implements LanguageModel {

    // map keys sorted: Map.of(...) args give the same JSON in every JVM
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private record Rule(String keyword, String toolName, Function<String, Object> args) {
    }

    private final List<Rule> rules;
    private final Function<ModelRequest, List<ModelChunk>> script;

    private DeterministicModel(List<Rule> rules, Function<ModelRequest, List<ModelChunk>> script) {
        this.rules = List.copyOf(rules);
        this.script = script;
    }

    /** Starts a keyword-rule model. */
    public static Builder builder() {
        return new Builder();
    }

    /** A model that answers each request with {@code script}'s chunks. */
    public static DeterministicModel scripted(Function<ModelRequest, List<ModelChunk>> script) {
        return new DeterministicModel(List.of(), Objects.requireNonNull(script, "script"));
    }

    @Override
    public Stream<ModelChunk> stream(ModelRequest request) {
        if (script != null) return script.apply(request).stream();
        Message last = request.lastMessage();
        int step = request.completedSteps() + 1;
        if (last instanceof Message.User user) {
            List<ModelChunk> calls = new ArrayList<>();
            String lower = user.text().toLowerCase(Locale.ROOT);
            for (Rule rule : rules) {
                if (lower.contains(rule.keyword())) {
                    JsonNode args = JSON.valueToTree(rule.args().apply(user.text()));
                    calls.add(new ModelChunk.ToolCallRequest(
                            new ToolCall("call_" + step + "_" + calls.size(), rule.toolName(), args)));
                }
            }
            if (!calls.isEmpty()) return calls.stream();
            return words("You said: " + user.text());
        }
        List<String> sentences = new ArrayList<>();
        List<Message> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0 && messages.get(i) instanceof Message.ToolResult r; i--) {
            JsonNode result = r.result();
            sentences.add(0, r.toolName() + ": " + (result.isTextual() ? result.asText() : result.toString()));
        }
        if (sentences.isEmpty()) return words("Done.");
        String text = String.join("; ", sentences);
        return words(text.endsWith(".") ? text : text + ".");
    }

    private static Stream<ModelChunk> words(String text) {
        List<ModelChunk> chunks = new ArrayList<>();
        String[] parts = text.split("(?<= )");
        for (String p : parts) chunks.add(new ModelChunk.TextDelta(p));
        return chunks.stream();
    }

    /** Builder of keyword rules. */
    public static final class Builder {
        private final List<Rule> rules = new ArrayList<>();

        private Builder() {
        }

        /** When the user's message contains {@code keyword}, call {@code toolName} with fixed {@code args}. */
        public Builder whenUserSays(String keyword, String toolName, Object args) {
            return whenUserSays(keyword, toolName, text -> args);
        }

        /** When the user's message contains {@code keyword}, call {@code toolName} with {@code args(message)}. */
        public Builder whenUserSays(String keyword, String toolName, Function<String, Object> args) {
            Objects.requireNonNull(keyword, "keyword");
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(args, "args");
            rules.add(new Rule(keyword.toLowerCase(Locale.ROOT), toolName, args));
            return this;
        }

        public DeterministicModel build() {
            return new DeterministicModel(rules, null);
        }
    }
}
