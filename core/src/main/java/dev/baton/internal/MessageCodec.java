package dev.baton.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.model.Message;
import dev.baton.model.ToolCall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a {@link Message}, in snapshots and in thread memory, written and read here
 * with field names of its own, so that renaming a public record or component never changes stored
 * data. Not API. The form (format 2):
 * <pre>
 * {"role":"user","text":"..."}
 * {"role":"assistant","text":"...","toolCalls":[{"toolCallId":"...","toolName":"...","args":{...}}]}
 * {"role":"tool","toolCallId":"...","toolName":"...","result":...,"isError":false}
 * </pre>
 * A test reads a fixed sample of it ({@code stored/messages-format2.jsonl}); change it only with a
 * new snapshot format version.
 */
public final class MessageCodec {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private MessageCodec() {
    }

    /** The Jackson module that makes a mapper write and read messages in their stored form. */
    static SimpleModule module() {
        SimpleModule m = new SimpleModule("baton-stored-message");
        m.addSerializer(Message.class, new JsonSerializer<>() {
            @Override
            public void serialize(Message value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
                write(value, gen, serializers);
            }
        });
        m.addDeserializer(Message.class, new JsonDeserializer<>() {
            @Override
            public Message deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                try {
                    // an object is read field by field, without its tree; anything else as a tree, as decode reads it
                    return p.hasToken(com.fasterxml.jackson.core.JsonToken.START_OBJECT) ? read(p, ctxt) : decode(p.readValueAsTree());
                } catch (IllegalArgumentException e) {
                    throw com.fasterxml.jackson.databind.JsonMappingException.from(p, e.getMessage(), e);
                }
            }
        });
        return m;
    }

    /**
     * The stored form of a message.
     *
     * @param m the message
     * @return a new JSON object
     */
    public static ObjectNode encode(Message m) {
        ObjectNode o = F.objectNode();
        o.put("role", m.role().wireName());
        if (m instanceof Message.User u) {
            o.put("text", u.text());
        } else if (m instanceof Message.Assistant a) {
            o.put("text", a.text());
            ArrayNode calls = o.putArray("toolCalls");
            for (ToolCall c : a.toolCalls()) {
                ObjectNode call = calls.addObject();
                call.put("toolCallId", c.toolCallId());
                call.put("toolName", c.toolName());
                call.set("args", c.args());
            }
        } else if (m instanceof Message.ToolResult r) {
            o.put("toolCallId", r.toolCallId());
            o.put("toolName", r.toolName());
            o.set("result", r.result());
            o.put("isError", r.isError());
        }
        return o;
    }

    /**
     * Writes the stored form of a message straight to {@code gen}: the same text as {@link #encode}'s
     * object written out (same fields, same order), without building the object first. Every write
     * of a snapshot writes each of the run's messages; a test holds the two to the same text.
     */
    static void write(Message m, JsonGenerator gen, SerializerProvider serializers) throws IOException {
        gen.writeStartObject();
        gen.writeStringField("role", m.role().wireName());
        if (m instanceof Message.User u) {
            writeText(gen, u.text());
        } else if (m instanceof Message.Assistant a) {
            writeText(gen, a.text());
            gen.writeArrayFieldStart("toolCalls");
            for (ToolCall c : a.toolCalls()) {
                gen.writeStartObject();
                gen.writeStringField("toolCallId", c.toolCallId());
                gen.writeStringField("toolName", c.toolName());
                gen.writeFieldName("args");
                writeNode(c.args(), gen, serializers);
                gen.writeEndObject();
            }
            gen.writeEndArray();
        } else if (m instanceof Message.ToolResult r) {
            gen.writeStringField("toolCallId", r.toolCallId());
            gen.writeStringField("toolName", r.toolName());
            gen.writeFieldName("result");
            writeNode(r.result(), gen, serializers);
            gen.writeBooleanField("isError", r.isError());
        }
        gen.writeEndObject();
    }

    /** Texts shorter than this go to the generator's own {@code writeString}. */
    private static final int PLAIN_MIN = 64;
    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final ThreadLocal<byte[]> LOW_BYTES = ThreadLocal.withInitial(() -> new byte[4096]);

    /**
     * {@code gen.writeStringField("text", text)}, the same output. A long text that needs no escape (the common case: a
     * prompt, an answer) is written raw between its quotes, without the generator's character-by-character escape check,
     * when the generator writes text ({@code WriterBasedJsonGenerator}, what {@link SnapshotCodec} writes with) and
     * escapes only what JSON needs (no custom escapes, no escaping of non-ASCII).
     */
    static void writeText(JsonGenerator gen, String text) throws IOException {
        gen.writeFieldName("text");
        if (text.length() >= PLAIN_MIN && gen instanceof com.fasterxml.jackson.core.json.WriterBasedJsonGenerator
                && gen.getCharacterEscapes() == null && gen.getHighestEscapedChar() == 0 && plain(text)) {
            gen.writeRawValue("\"");
            gen.writeRaw(text);
            gen.writeRaw('"');
        } else {
            gen.writeString(text);
        }
    }

    /**
     * True if no character of {@code text} is one a JSON string escapes: a control character ({@code < 0x20}), a quote,
     * a backslash, or a slash (which a generator may be set to escape). Checked eight characters at a time on the low
     * byte of each character: a character above {@code 0xFF} whose low byte looks like one of those only makes the
     * answer false (the generator then writes the text as it always does); no character above {@code 0x7F} needs an
     * escape from such a generator. {@code MessageCodecTest} holds the output equal to the generator's own.
     */
    static boolean plain(String text) {
        int n = text.length();
        byte[] b = LOW_BYTES.get();
        if (b.length < n) {
            if (n > 1 << 20) return false;   // a huge text: the generator's own way, no buffer kept that large
            b = new byte[Math.max(n, 2 * b.length)];
            LOW_BYTES.set(b);
        }
        lowBytes(text, n, b);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long x = (long) LONGS.get(b, i);
            if (special(x)) return false;
        }
        for (; i < n; i++) {
            int c = b[i] & 0xFF;
            if (c < 0x20 || c == '"' || c == '\\' || c == '/') return false;
        }
        return true;
    }

    @SuppressWarnings("deprecation")
    private static void lowBytes(String text, int n, byte[] into) {
        text.getBytes(0, n, into, 0);   // the low byte of each character (a plain copy for a Latin-1 string)
    }

    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /** True if some byte of {@code x} is below 0x20, or is a quote, a backslash or a slash. */
    private static boolean special(long x) {
        long below = (x - 0x20 * ONES) & ~x & HIGHS;
        long quote = x ^ ('"' * ONES), backslash = x ^ ('\\' * ONES), slash = x ^ ('/' * ONES);
        long zero = ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash) | ((slash - ONES) & ~slash);
        return (below | (zero & HIGHS)) != 0;
    }

    private static void writeNode(JsonNode node, JsonGenerator gen, SerializerProvider serializers) throws IOException {
        if (node == null) {
            gen.writeNull();   // as ObjectNode.set(name, null) stores it
        } else {
            ((com.fasterxml.jackson.databind.JsonSerializable) node).serialize(gen, serializers);
        }
    }

    /**
     * Reads a message from its stored form, the parser on its {@code START_OBJECT}, without building the object's tree:
     * the same message as {@link #decode} of the object's tree, and the same refusals (a field given twice counts
     * once, its last value, as in the tree; the values {@code decode} reads as trees, {@code toolCalls}, {@code args},
     * {@code result}, and any value of an unexpected type, are read as trees). {@code MessageCodecTest} holds the two
     * equal on random stored forms. Leaves the parser on the object's {@code END_OBJECT}.
     */
    static Message read(JsonParser p) throws IOException {
        return read(p, null);
    }

    /** {@link #read(JsonParser)}, reading the trees in {@code ctxt} (no new context per tree), if given. */
    static Message read(JsonParser p, @org.jspecify.annotations.Nullable DeserializationContext ctxt) throws IOException {
        String role = null, text = null, toolCallId = null, toolName = null;
        Trees trees = ctxt == null ? MessageCodec::tree : q -> tree(q, ctxt);
        // a field of an unexpected type (or null) is kept as its tree, and read as decode reads it
        JsonNode roleNode = null, textNode = null, toolCallIdNode = null, toolNameNode = null, toolCalls = null, result = null, isError = null;
        boolean textSeen = false, toolCallIdSeen = false, toolNameSeen = false, roleSeen = false;
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            com.fasterxml.jackson.core.JsonToken t = p.nextToken();
            boolean string = t == com.fasterxml.jackson.core.JsonToken.VALUE_STRING;
            switch (name) {
                case "role" -> {
                    roleSeen = true;
                    role = string ? p.getText() : null;
                    roleNode = string ? null : trees.read(p);
                }
                case "text" -> {
                    textSeen = true;
                    text = string ? p.getText() : null;
                    textNode = string ? null : trees.read(p);
                }
                case "toolCallId" -> {
                    toolCallIdSeen = true;
                    toolCallId = string ? p.getText() : null;
                    toolCallIdNode = string ? null : trees.read(p);
                }
                case "toolName" -> {
                    toolNameSeen = true;
                    toolName = string ? p.getText() : null;
                    toolNameNode = string ? null : trees.read(p);
                }
                case "toolCalls" -> toolCalls = trees.read(p);
                case "result" -> result = trees.read(p);
                case "isError" -> isError = trees.read(p);
                default -> p.skipChildren();
            }
        }
        if (!p.hasToken(com.fasterxml.jackson.core.JsonToken.END_OBJECT)) {
            throw new IllegalArgumentException("a stored message is not a JSON object");
        }
        String r = textOf(roleSeen, role, roleNode, "role");
        switch (r) {
            case "user":
                return new Message.User(textOf(textSeen, text, textNode, "text"));
            case "assistant": {
                List<ToolCall> calls = new ArrayList<>();
                if (toolCalls != null && !toolCalls.isNull()) {
                    if (!toolCalls.isArray()) throw new IllegalArgumentException("toolCalls of a stored message is not an array");
                    for (JsonNode c : toolCalls) calls.add(new ToolCall(text(c, "toolCallId"), text(c, "toolName"), c.get("args")));
                }
                String t = text != null ? text : textNode == null || textNode.isNull() ? "" : textNode.asText();
                return new Message.Assistant(t, calls);
            }
            case "tool": {
                if (result == null) throw new IllegalArgumentException("a stored tool result has no result");
                String id = textOf(toolCallIdSeen, toolCallId, toolCallIdNode, "toolCallId");
                return new Message.ToolResult(id, textOf(toolNameSeen, toolName, toolNameNode, "toolName"), result,
                        isError != null && isError.asBoolean());
            }
            default:
                throw new IllegalArgumentException("unknown role '" + r + "' in a stored message");
        }
    }

    /** How {@link #read} reads a value as a tree. */
    private interface Trees {
        JsonNode read(JsonParser p) throws IOException;
    }

    /** The value the parser is on, as a tree (JSON null as {@code NullNode}, as within an object's tree). */
    private static JsonNode tree(JsonParser p) throws IOException {
        if (p.hasToken(com.fasterxml.jackson.core.JsonToken.VALUE_NULL)) return F.nullNode();
        JsonNode n = p.readValueAsTree();
        return n == null ? F.nullNode() : n;
    }

    /** {@link #tree(JsonParser)} in the context of the value being read. */
    private static JsonNode tree(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.hasToken(com.fasterxml.jackson.core.JsonToken.VALUE_NULL)) return F.nullNode();
        JsonNode n = ctxt.readTree(p);
        return n == null ? F.nullNode() : n;
    }

    /** {@link #text(JsonNode, String)} of a field read by {@link #read}: its string, else refused as decode refuses it. */
    private static String textOf(boolean seen, @org.jspecify.annotations.Nullable String string,
                                 @org.jspecify.annotations.Nullable JsonNode node, String field) {
        if (string != null) return string;
        if (seen && node != null && node.isTextual()) return node.asText();
        throw new IllegalArgumentException("a stored message has no text field '" + field + "'");
    }

    /**
     * The stored form of a message, as JSON text.
     *
     * @param m the message
     * @return the JSON text
     */
    public static String encodeText(Message m) {
        return encode(m).toString();
    }

    /**
     * Reads a message from its stored form.
     *
     * @param node the stored JSON
     * @return the message
     * @throws IllegalArgumentException naming what is missing or unknown
     */
    public static Message decode(JsonNode node) {
        if (node == null || !node.isObject()) throw new IllegalArgumentException("a stored message is not a JSON object");
        String role = text(node, "role");
        switch (role) {
            case "user":
                return new Message.User(text(node, "text"));
            case "assistant": {
                List<ToolCall> calls = new ArrayList<>();
                JsonNode list = node.get("toolCalls");
                if (list != null && !list.isNull()) {
                    if (!list.isArray()) throw new IllegalArgumentException("toolCalls of a stored message is not an array");
                    for (JsonNode c : list) calls.add(new ToolCall(text(c, "toolCallId"), text(c, "toolName"), c.get("args")));
                }
                JsonNode t = node.get("text");
                return new Message.Assistant(t == null || t.isNull() ? "" : t.asText(), calls);
            }
            case "tool": {
                JsonNode result = node.get("result");
                if (result == null) throw new IllegalArgumentException("a stored tool result has no result");
                JsonNode isError = node.get("isError");
                return new Message.ToolResult(text(node, "toolCallId"), text(node, "toolName"), result,
                        isError != null && isError.asBoolean());
            }
            default:
                throw new IllegalArgumentException("unknown role '" + role + "' in a stored message");
        }
    }

    /**
     * Reads a message from its stored JSON text.
     *
     * @param json the stored text
     * @return the message
     * @throws IllegalArgumentException if it is not a stored message
     */
    public static Message decodeText(String json) {
        try {
            return decode(SnapshotCodec.JSON.readTree(json));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        if (v == null || !v.isTextual()) throw new IllegalArgumentException("a stored message has no text field '" + field + "'");
        return v.asText();
    }
}
