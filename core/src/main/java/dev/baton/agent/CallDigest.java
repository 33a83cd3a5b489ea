package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The digest that binds a decision to what the person was shown: SHA-256, as 64 lower-case hex
 * digits, over the UTF-8 bytes of the canonical JSON of
 * {@code {"args": <args>, "payload": <suspendPayload>, "tool": <toolName>}}, where canonical
 * means: object keys sorted by {@link String#compareTo} at every depth, no whitespace, strings
 * escaped as Jackson writes them, numbers as Jackson writes them (so {@code 1} and {@code 1.0}
 * differ), absent values as {@code null}. The same call always gives the same digest, on every
 * instance and after every store round trip; a changed argument, payload or tool gives another.
 *
 * <p>Stateless and thread-safe.
 */
public final class CallDigest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();
    /** One SHA-256 per thread: looking the algorithm up costs more than digesting a call. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot digest a tool call", e);
        }
    });

    private CallDigest() {
    }

    /**
     * The digest of a call as listed.
     *
     * @param toolName       the tool, as listed
     * @param args           the arguments as listed, or null
     * @param suspendPayload the payload as listed, or null
     * @return 64 lower-case hex digits
     */
    public static String of(String toolName, @Nullable JsonNode args, @Nullable JsonNode suspendPayload) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.set("args", args == null ? JsonNodeFactory.instance.nullNode() : args);
        root.set("payload", suspendPayload == null ? JsonNodeFactory.instance.nullNode() : suspendPayload);
        root.put("tool", toolName);
        JsonNode canonical = canonical(root);
        MessageDigest sha = SHA256.get();
        Scratch b = SCRATCH.get();
        if (b.busy) b = new Scratch();   // digested from within a digest (a node's own serializer): a buffer of its own
        b.busy = true;
        try {
            // the text JSON.writeValueAsString gives (the same generator, written into this thread's buffer), then its
            // UTF-8 bytes: copied as they are when it is ASCII, else encoded as String.getBytes encodes them
            WRITER.writeValue(b, canonical);
            StringBuilder text = b.text;
            int n = text.length();
            byte[] bytes = b.bytes.length >= n ? b.bytes : new byte[Math.max(n, 2 * b.bytes.length)];
            boolean ascii = true;
            for (int i = 0; i < n && ascii; i++) {
                char c = text.charAt(i);
                bytes[i] = (byte) c;
                ascii = c < 0x80;
            }
            if (ascii) {
                if (bytes.length <= MAX_KEPT) b.bytes = bytes;
                sha.update(bytes, 0, n);
            } else {
                sha.update(text.toString().getBytes(StandardCharsets.UTF_8));
            }
            return HEX.formatHex(sha.digest());   // digest() resets it for the next call
        } catch (java.io.IOException e) {
            sha.reset();
            throw new IllegalStateException("cannot digest a tool call", e);
        } finally {
            b.busy = false;
            if (b.text.capacity() > MAX_KEPT) SCRATCH.remove();
            else b.text.setLength(0);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectWriter WRITER = JSON.writer();
    /** A thread's buffers past this size (characters, bytes) are let go after the digest. */
    private static final int MAX_KEPT = 65_536;
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** The canonical text of a call and its bytes, kept for the thread (a Writer that is never closed for real). */
    private static final class Scratch extends java.io.Writer {
        final StringBuilder text = new StringBuilder(256);
        byte[] bytes = new byte[256];
        boolean busy;

        @Override
        public void write(char[] cbuf, int off, int len) {
            text.append(cbuf, off, len);
        }

        @Override
        public void write(String str, int off, int len) {
            text.append(str, off, off + len);
        }

        @Override
        public void write(int c) {
            text.append((char) c);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    /** {@code node} with its object keys sorted at every depth: {@code node} itself when they already are (no copy). */
    private static JsonNode canonical(JsonNode node) {
        return sorted(node) ? node : sortedCopy(node);
    }

    private static boolean sorted(JsonNode node) {
        if (node.isObject()) {
            String previous = null;
            for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                java.util.Map.Entry<String, JsonNode> e = it.next();
                if (previous != null && previous.compareTo(e.getKey()) >= 0) return false;
                if (!sorted(e.getValue())) return false;
                previous = e.getKey();
            }
            return true;
        }
        if (node.isArray()) {
            for (JsonNode e : node) if (!sorted(e)) return false;
        }
        return true;
    }

    private static JsonNode sortedCopy(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            Collections.sort(names);
            ObjectNode sorted = JsonNodeFactory.instance.objectNode();
            for (String n : names) sorted.set(n, sortedCopy(node.get(n)));
            return sorted;
        }
        if (node.isArray()) {
            var arr = JsonNodeFactory.instance.arrayNode();
            for (JsonNode e : node) arr.add(sortedCopy(e));
            return arr;
        }
        return node;
    }
}
