package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CallDigestCanonicalTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String sha256(String canonical) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theDigestIsOverTheCanonicalJsonWhetherTheKeysCameSortedOrNot() throws Exception {
        JsonNode sorted = JSON.readTree("{\"a\":[{\"c\":3,\"d\":2.0}],\"b\":\"x\\u00e9\"}");
        JsonNode unsorted = JSON.readTree("{\"b\":\"x\\u00e9\",\"a\":[{\"d\":2.0,\"c\":3}]}");
        String expected = sha256("{\"args\":{\"a\":[{\"c\":3,\"d\":2.0}],\"b\":\"x\u00e9\"},\"payload\":null,\"tool\":\"t\"}");
        assertThat(CallDigest.of("t", sorted, null)).isEqualTo(expected);
        assertThat(CallDigest.of("t", unsorted, null)).isEqualTo(expected);
        assertThat(unsorted.toString()).isEqualTo("{\"b\":\"x\u00e9\",\"a\":[{\"d\":2.0,\"c\":3}]}");   // the caller's node is not touched
        JsonNode payload = JSON.readTree("{\"z\":{\"y\":null,\"x\":[]},\"k\":true}");
        assertThat(CallDigest.of("t", null, payload))
                .isEqualTo(sha256("{\"args\":null,\"payload\":{\"k\":true,\"z\":{\"x\":[],\"y\":null}},\"tool\":\"t\"}"));
        assertThat(CallDigest.of("t", JSON.readTree("{\"a\":1}"), null)).isNotEqualTo(CallDigest.of("t", JSON.readTree("{\"a\":1.0}"), null));
    }

    /**
     * The digest against its definition, computed the plain way (a sorted copy by a TreeMap, Jackson's
     * {@code writeValueAsString}, {@code String.getBytes(UTF_8)}, SHA-256) on seeded random calls: ASCII and not,
     * control characters, quotes, surrogate pairs and lone surrogates, every kind of number node, nested and unsorted.
     */
    @Test
    void theDigestIsTheDefinitionsOnRandomCalls() throws Exception {
        SplittableRandom r = new SplittableRandom(3939);
        for (int i = 0; i < 10_000; i++) {
            String tool = string(r);
            JsonNode args = r.nextInt(8) == 0 ? null : node(r, 0);
            JsonNode payload = r.nextInt(3) == 0 ? node(r, 0) : null;
            ObjectNode root = JSON.createObjectNode();
            root.set("args", args == null ? JSON.nullNode() : sortedByTreeMap(args));
            root.set("payload", payload == null ? JSON.nullNode() : sortedByTreeMap(payload));
            root.put("tool", tool);
            String expected = sha256(JSON.writeValueAsString(root));
            String argsBefore = String.valueOf(args);
            assertThat(CallDigest.of(tool, args, payload)).as("call %s %s %s", tool, args, payload).isEqualTo(expected);
            assertThat(String.valueOf(args)).isEqualTo(argsBefore);
        }
    }

    private static JsonNode sortedByTreeMap(JsonNode node) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> m = new TreeMap<>();
            node.fields().forEachRemaining(e -> m.put(e.getKey(), sortedByTreeMap(e.getValue())));
            ObjectNode o = JSON.createObjectNode();
            m.forEach(o::set);
            return o;
        }
        if (node.isArray()) {
            ArrayNode a = JSON.createArrayNode();
            node.forEach(e -> a.add(sortedByTreeMap(e)));
            return a;
        }
        return node;
    }

    private static JsonNode node(SplittableRandom r, int depth) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (r.nextInt(depth > 3 ? 9 : 12)) {
            case 0, 1: return f.textNode(string(r));
            case 2: return f.numberNode(r.nextInt());
            case 3: return f.numberNode(r.nextLong());
            case 4: return f.numberNode(r.nextDouble() * 1e6);
            case 5: return f.numberNode((float) r.nextDouble());
            case 6: return f.numberNode(new BigDecimal(r.nextLong()).movePointLeft(r.nextInt(10)));
            case 7: return r.nextBoolean() ? f.booleanNode(r.nextBoolean()) : f.nullNode();
            case 8: return f.numberNode(BigInteger.valueOf(r.nextLong()).shiftLeft(r.nextInt(70)));
            case 9, 10: {
                ObjectNode o = f.objectNode();
                int n = r.nextInt(5);
                for (int k = 0; k < n; k++) o.set(string(r), node(r, depth + 1));
                return o;
            }
            default: {
                ArrayNode a = f.arrayNode();
                int n = r.nextInt(4);
                for (int k = 0; k < n; k++) a.add(node(r, depth + 1));
                return a;
            }
        }
    }

    private static String string(SplittableRandom r) {
        int n = r.nextInt(10);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(12);
            if (kind < 7) b.append((char) ('a' + r.nextInt(26)));
            else if (kind == 7) b.append((char) r.nextInt(0x20));
            else if (kind == 8) b.append("\"\\/\u00e9\u20ac");
            else if (kind == 9) b.append((char) (0xD800 + r.nextInt(0x800)));   // a lone surrogate
            else if (kind == 10) b.appendCodePoint(0x1F600 + r.nextInt(50));
            else b.append((char) (0x80 + r.nextInt(0x780)));
        }
        return b.toString();
    }
}
