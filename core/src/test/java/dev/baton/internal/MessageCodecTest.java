package dev.baton.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.baton.model.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link MessageCodec#read} (a stored message read field by field) against {@link MessageCodec#decode} of the
 * message's tree (how it was read before), on seeded random stored forms: valid ones with their fields in any order,
 * and broken ones (a field missing, given twice, of another type, null, unknown fields, an unknown role). The same
 * message, or the same refusal.
 */
class MessageCodecTest {
    private static final ObjectReader MESSAGE = SnapshotCodec.JSON.readerFor(Message.class);

    @Test
    void readingFieldByFieldGivesWhatTheTreeGives() throws Exception {
        SplittableRandom r = new SplittableRandom(3939);
        int valid = 0;
        for (int i = 0; i < 30_000; i++) {
            String json = message(r);
            Object expected = outcome(() -> MessageCodec.decode(SnapshotCodec.JSON.readTree(json)));
            Object streamed = outcome(() -> {
                try (JsonParser p = SnapshotCodec.JSON.createParser(json)) {
                    p.nextToken();
                    return MessageCodec.read(p);
                }
            });
            assertThat(streamed).as(json).isEqualTo(expected);
            // through the mapper's module (as a snapshot's messages are read): the same message, or a refusal with its message
            Object mapped = outcome(() -> MESSAGE.readValue(json));
            if (expected instanceof Message) {
                assertThat(mapped).as(json).isEqualTo(expected);
                valid++;
            } else {
                assertThat(String.valueOf(mapped)).as(json).contains(String.valueOf(expected).replace("refused: ", ""));
            }
        }
        assertThat(valid).as("valid stored forms").isGreaterThan(5_000);
    }

    @Test
    void aStoredFormWrittenByTheCodecReadsBackTheSame() throws Exception {
        List<Message> messages = List.of(new Message.User("hi \"there\"\n\u00e9\uD83D\uDE00"),
                new Message.Assistant("", List.of(new dev.baton.model.ToolCall("c1", "t", SnapshotCodec.JSON.readTree("{\"b\":[1,2.5,null],\"a\":{}}")))),
                new Message.Assistant("done", List.of()),
                new Message.ToolResult("c1", "t", SnapshotCodec.JSON.readTree("{\"ok\":true}"), false),
                new Message.ToolResult("c2", "t", SnapshotCodec.JSON.readTree("\"no\""), true));
        for (Message m : messages) {
            assertThat(MESSAGE.<Message>readValue(MessageCodec.encodeText(m))).isEqualTo(m);
        }
    }

    /**
     * {@link MessageCodec#writeText} against the generator's own {@code writeStringField}, on seeded random texts of every
     * length around its threshold: control characters, quotes, backslashes, slashes, Latin-1, characters whose low byte
     * is one of those, surrogate pairs and lone surrogates. Also a whole message through the mapper against its tree.
     */
    @Test
    void writingALongPlainTextRawGivesWhatTheGeneratorWrites() throws Exception {
        SplittableRandom r = new SplittableRandom(39);
        int raw = 0;
        for (int i = 0; i < 30_000; i++) {
            String text = longText(r);
            java.io.StringWriter expected = new java.io.StringWriter(), actual = new java.io.StringWriter();
            try (com.fasterxml.jackson.core.JsonGenerator g = SnapshotCodec.JSON.getFactory().createGenerator(expected)) {
                g.writeStartObject();
                g.writeStringField("text", text);
                g.writeEndObject();
            }
            try (com.fasterxml.jackson.core.JsonGenerator g = SnapshotCodec.JSON.getFactory().createGenerator(actual)) {
                g.writeStartObject();
                MessageCodec.writeText(g, text);
                g.writeEndObject();
            }
            assertThat(actual.toString()).isEqualTo(expected.toString());
            Message m = r.nextBoolean() ? new Message.User(text) : new Message.Assistant(text, List.of());
            assertThat(SnapshotCodec.JSON.writeValueAsString(m)).isEqualTo(MessageCodec.encode(m).toString());
            if (text.length() >= 64 && MessageCodec.plain(text)) raw++;
        }
        assertThat(raw).as("texts written raw").isGreaterThan(3_000);
    }

    private static String longText(SplittableRandom r) {
        int n = r.nextInt(4) == 0 ? r.nextInt(64) : 60 + r.nextInt(600);
        boolean clean = r.nextInt(3) != 0;   // most long texts need no escape, as prompts do
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            int k = r.nextInt(clean ? 3 : 12);
            switch (k) {
                case 0, 1 -> b.append((char) ('a' + r.nextInt(26)));
                case 2 -> b.append(clean && r.nextInt(50) == 0 ? (char) (0xA0 + r.nextInt(0x60)) : ' ');
                case 3 -> b.append((char) r.nextInt(0x20));
                case 4 -> b.append('"');
                case 5 -> b.append('\\');
                case 6 -> b.append('/');
                case 7 -> b.append((char) (0x100 + r.nextInt(0x7F00)));   // low bytes of every kind
                case 8 -> b.append((char) (0x0100 | "\"\\/\n".charAt(r.nextInt(4))));
                case 9 -> b.appendCodePoint(0x1F600 + r.nextInt(50));
                case 10 -> b.append((char) (0xD800 + r.nextInt(0x800)));
                default -> b.append((char) (0x80 + r.nextInt(0x80)));
            }
        }
        return b.toString();
    }

    interface Read {
        Object get() throws Exception;
    }

    /** The message read, or {@code "refused: <message>"} (the refusal's text, without the parser location Jackson adds). */
    private static Object outcome(Read read) {
        try {
            return read.get();
        } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
            return "refused: " + e.getOriginalMessage();
        } catch (Exception e) {
            return "refused: " + e.getMessage();
        }
    }

    private static String message(SplittableRandom r) {
        List<String> fields = new ArrayList<>();
        String role = switch (r.nextInt(12)) {
            case 0 -> null;
            case 1 -> "\"robot\"";
            case 2 -> "7";
            case 3 -> "null";
            case 4, 5, 6 -> "\"user\"";
            case 7, 8 -> "\"assistant\"";
            default -> "\"tool\"";
        };
        if (role != null) fields.add("\"role\":" + role);
        if (r.nextInt(6) != 0) fields.add("\"text\":" + value(r, true));
        if (r.nextInt(3) != 0) fields.add("\"toolCalls\":" + toolCalls(r));
        if (r.nextInt(4) != 0) fields.add("\"toolCallId\":" + value(r, true));
        if (r.nextInt(4) != 0) fields.add("\"toolName\":" + value(r, true));
        if (r.nextInt(4) != 0) fields.add("\"result\":" + value(r, false));
        if (r.nextInt(3) == 0) fields.add("\"isError\":" + (r.nextInt(3) == 0 ? value(r, false) : String.valueOf(r.nextBoolean())));
        if (r.nextInt(5) == 0) fields.add("\"extra\":" + value(r, false));
        if (r.nextInt(6) == 0 && !fields.isEmpty()) fields.add(fields.get(r.nextInt(fields.size())).replaceFirst(":.*", ":" + value(r, true)));
        // any order
        for (int i = fields.size() - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            String f = fields.get(i);
            fields.set(i, fields.get(j));
            fields.set(j, f);
        }
        return "{" + String.join(",", fields) + "}";
    }

    private static String toolCalls(SplittableRandom r) {
        int kind = r.nextInt(10);
        if (kind == 0) return "null";
        if (kind == 1) return "{\"toolCallId\":\"x\"}";
        if (kind == 2) return "\"calls\"";
        List<String> calls = new ArrayList<>();
        int n = r.nextInt(3);
        for (int i = 0; i < n; i++) {
            if (r.nextInt(10) == 0) {
                calls.add(value(r, false));
                continue;
            }
            List<String> f = new ArrayList<>();
            if (r.nextInt(8) != 0) f.add("\"toolCallId\":" + (r.nextInt(8) == 0 ? "3" : "\"call_" + i + "\""));
            if (r.nextInt(8) != 0) f.add("\"toolName\":\"t" + r.nextInt(3) + "\"");
            if (r.nextInt(4) != 0) f.add("\"args\":" + value(r, false));
            calls.add("{" + String.join(",", f) + "}");
        }
        return "[" + String.join(",", calls) + "]";
    }

    /** A JSON value: mostly a string when {@code stringy}, else of any type. */
    private static String value(SplittableRandom r, boolean stringy) {
        int kind = r.nextInt(stringy ? 14 : 8);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> String.valueOf(r.nextInt(-5, 50));
            case 2 -> String.valueOf(r.nextDouble());
            case 3 -> String.valueOf(r.nextBoolean());
            case 4 -> "{\"k\":[1,\"v\",{\"z\":null}],\"a\":" + r.nextInt(9) + "}";
            case 5 -> "[\"a\",2,{}]";
            case 6 -> "\"true\"";
            case 7 -> "{}";
            default -> "\"" + text(r) + "\"";
        };
    }

    private static String text(SplittableRandom r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(12);
        for (int i = 0; i < n; i++) {
            int k = r.nextInt(10);
            if (k < 7) b.append((char) ('a' + r.nextInt(26)));
            else if (k == 7) b.append("\\\"");
            else if (k == 8) b.append("\\u00e9\\n");
            else b.append(' ');
        }
        return b.toString();
    }
}
