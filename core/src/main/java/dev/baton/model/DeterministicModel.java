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
 *
 * <p>Immutable and thread-safe: one instance may serve any number of agents and runs at once.
 */
public final class DeterministicModel implements LanguageModel {

    // map keys sorted: Map.of(...) args give the same JSON in every JVM
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private record Rule(String keyword, String toolName, Function<String, Object> args) {
    }

    private record Answer(String keyword, Function<List<Message>, String> answer) {
    }

    private final List<Rule> rules;
    private final List<Answer> answers;
    private final Function<ModelRequest, List<ModelChunk>> script;

    private DeterministicModel(List<Rule> rules, List<Answer> answers, Function<ModelRequest, List<ModelChunk>> script) {
        this.rules = List.copyOf(rules);
        this.answers = List.copyOf(answers);
        this.script = script;
    }

    /**
     * Starts a keyword-rule model.
     *
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A model that answers each request with {@code script}'s chunks.
     *
     * @param script the chunks of each answer, given the request
     * @return the model
     */
    public static DeterministicModel scripted(Function<ModelRequest, List<ModelChunk>> script) {
        return new DeterministicModel(List.of(), List.of(), Objects.requireNonNull(script, "script"));
    }

    @Override
    public Stream<ModelChunk> stream(ModelRequest request) {
        if (script != null) return script.apply(request).stream();
        Message last = request.lastMessage();
        int step = request.completedSteps() + 1;
        if (last instanceof Message.User user) {
            List<ModelChunk> calls = new ArrayList<>();
            Lowered lower = new Lowered(user.text());
            for (Answer a : answers) {
                if (lower.contains(a.keyword())) return words(a.answer().apply(request.messages()));
            }
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

    /**
     * {@code text.toLowerCase(Locale.ROOT).contains(keyword)} for a lower-case keyword, without lowering the whole
     * text when it is Latin-1 (each such character lowers to one character, {@link Character#toLowerCase(char)}); any
     * other text is lowered as before (a character may lower to two, or by its context).
     */
    static final class Lowered {
        private final String text;
        private final boolean latin1;
        private String lowered;

        Lowered(String text) {
            this.text = text;
            boolean l = true;
            for (int i = 0; i < text.length() && l; i++) l = text.charAt(i) <= 0xFF;
            this.latin1 = l;
        }

        boolean contains(String keyword) {
            if (!latin1) {
                if (lowered == null) lowered = text.toLowerCase(Locale.ROOT);
                return lowered.contains(keyword);
            }
            int n = text.length(), k = keyword.length();
            outer:
            for (int i = 0; i + k <= n; i++) {
                for (int j = 0; j < k; j++) {
                    if (Character.toLowerCase(text.charAt(i + j)) != keyword.charAt(j)) continue outer;
                }
                return true;
            }
            return false;
        }
    }

    static Stream<ModelChunk> words(String text) {
        // each word with the spaces after it, as text.split("(?<= )") gives them, without a regex per call
        List<ModelChunk> chunks = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == ' ') {
                chunks.add(new ModelChunk.TextDelta(text.substring(from, i + 1)));
                from = i + 1;
            }
        }
        if (from < text.length() || text.isEmpty()) chunks.add(new ModelChunk.TextDelta(text.substring(from)));
        return chunks.stream();
    }

    /**
     * The text of the latest tool result in {@code conversation} (for example one an earlier run of the
     * thread produced, seen through thread memory), as {@code "toolName: result"}, or null if none.
     *
     * @param conversation the messages, oldest first
     * @return the latest tool result as text, or null
     */
    public static @org.jspecify.annotations.Nullable String lastToolResult(List<Message> conversation) {
        for (int i = conversation.size() - 1; i >= 0; i--) {
            if (conversation.get(i) instanceof Message.ToolResult r) {
                JsonNode result = r.result();
                return r.toolName() + ": " + (result.isTextual() ? result.asText() : result.toString());
            }
        }
        return null;
    }

    /** Builder of keyword rules. */
    public static final class Builder {
        private final List<Rule> rules = new ArrayList<>();
        private final List<Answer> answers = new ArrayList<>();

        private Builder() {
        }

        /**
         * When the user's message contains {@code keyword}, call {@code toolName} with fixed {@code args}.
         *
         * @param keyword  a word of the user's message (case-insensitive)
         * @param toolName the tool to call
         * @param args     the call's arguments (any JSON-able value)
         * @return this builder
         */
        public Builder whenUserSays(String keyword, String toolName, Object args) {
            return whenUserSays(keyword, toolName, text -> args);
        }

        /**
         * When the user's message contains {@code keyword}, call {@code toolName} with {@code args(message)}.
         *
         * @param keyword  a word of the user's message (case-insensitive)
         * @param toolName the tool to call
         * @param args     the call's arguments, from the user's message
         * @return this builder
         */
        public Builder whenUserSays(String keyword, String toolName, Function<String, Object> args) {
            Objects.requireNonNull(keyword, "keyword");
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(args, "args");
            rules.add(new Rule(keyword.toLowerCase(Locale.ROOT), toolName, args));
            return this;
        }

        /**
         * When the user's message contains {@code keyword}, answer with {@code answer} applied to the
         * whole conversation the model is given (earlier messages of the thread included, with thread
         * memory), and call no tool. Answer rules are checked before tool rules.
         *
         * <pre>{@code
         * .whenUserAsks("what did i book", conversation -> "You booked " + DeterministicModel.lastToolResult(conversation))
         * }</pre>
         *
         * @param keyword a word of the user's message (case-insensitive)
         * @param answer  the answer, from the conversation
         * @return this builder
         */
        public Builder whenUserAsks(String keyword, Function<List<Message>, String> answer) {
            Objects.requireNonNull(keyword, "keyword");
            Objects.requireNonNull(answer, "answer");
            answers.add(new Answer(keyword.toLowerCase(Locale.ROOT), answer));
            return this;
        }

        /**
         * {@return the model}
         */
        public DeterministicModel build() {
            return new DeterministicModel(rules, answers, null);
        }
    }
}
