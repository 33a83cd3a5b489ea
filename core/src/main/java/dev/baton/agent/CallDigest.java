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
        try {
            byte[] bytes = JSON.writeValueAsString(canonical(root)).getBytes(StandardCharsets.UTF_8);
            return HEX.formatHex(SHA256.get().digest(bytes));   // digest() resets it for the next call
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot digest a tool call", e);
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
