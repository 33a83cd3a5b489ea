package dev.baton.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@link ObjectMapper#valueToTree} for the plain values tools and models return most ({@code Map.of("booked", true)}):
 * maps with string keys, lists, strings, booleans, {@code Integer}s and {@code Long}s (what the run loop converts: a
 * tool's result), built by hand, without Jackson's
 * serializer provider, token buffer and tree reader per call. The tree is the one {@code valueToTree} gives with a
 * mapper that sorts map entries by key ({@code SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS}, as both of core's
 * mappers do) and has no serializer of its own for these types; anything else (a null, another number type, a set,
 * an array, a record, a map with a key that is not a string) goes to the mapper's own {@code valueToTree}, whole.
 * {@code JsonTreesTest} holds the two to equal trees on seeded random values. Not API; stateless and thread-safe.
 */
public final class JsonTrees {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** Deeper than this, the mapper builds it (and reports its own depth limits). */
    private static final int MAX_DEPTH = 64;

    private JsonTrees() {
    }

    /**
     * The tree of {@code value}, as {@code mapper.valueToTree(value)} gives it.
     *
     * @param mapper a mapper that sorts map entries by key, with no serializer of its own for maps, lists, strings,
     *               booleans, integers or longs
     * @param value  any value
     * @return the tree (null for a null value, as {@code valueToTree})
     * @throws IllegalArgumentException as {@code valueToTree}, for a value it cannot convert
     */
    public static @Nullable JsonNode valueToTree(ObjectMapper mapper, @Nullable Object value) {
        if (value != null && simple(value, 0)) return build(value);
        return mapper.valueToTree(value);
    }

    /** True if {@link #valueToTree} builds the tree of {@code value} by hand (for tests). */
    static boolean builtByHand(@Nullable Object value) {
        return value != null && simple(value, 0);
    }

    /** True if {@code value} is made only of the types built here (and is not too deep). */
    private static boolean simple(Object value, int depth) {
        if (value instanceof String || value instanceof Boolean || value instanceof Integer || value instanceof Long) return true;
        if (depth >= MAX_DEPTH) return false;
        if (value instanceof Map<?, ?> map) {
            // the JDK's own hash maps and Map.of: a sorted map keeps its own order with the mapper, a class of one's own
            // may have annotations or a serializer
            if (!ownMap(map)) return false;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String) || e.getValue() == null || !simple(e.getValue(), depth + 1)) return false;
            }
            return true;
        }
        if (value instanceof List<?> list) {
            if (!value.getClass().getName().startsWith("java.util.")) return false;
            for (Object o : list) if (o == null || !simple(o, depth + 1)) return false;
            return true;
        }
        return false;
    }

    private static final Class<?> MAP0 = Map.of().getClass();
    private static final Class<?> MAP1 = Map.of("k", "v").getClass();
    private static final Class<?> MAPN = Map.of("k", "v", "l", "w").getClass();

    private static boolean ownMap(Map<?, ?> map) {
        Class<?> c = map.getClass();
        return c == java.util.HashMap.class || c == java.util.LinkedHashMap.class || c == MAP0 || c == MAP1 || c == MAPN;
    }

    private static JsonNode build(Object value) {
        if (value instanceof String s) return F.textNode(s);
        if (value instanceof Boolean b) return F.booleanNode(b);
        if (value instanceof Integer i) return F.numberNode(i.intValue());
        if (value instanceof Long l) return F.numberNode(l.longValue());
        if (value instanceof Map<?, ?> map) {
            ObjectNode o = F.objectNode();
            if (map.size() == 1) {
                Map.Entry<?, ?> e = map.entrySet().iterator().next();
                o.set((String) e.getKey(), build(e.getValue()));
                return o;
            }
            String[] keys = new String[map.size()];
            int k = 0;
            for (Object key : map.keySet()) keys[k++] = (String) key;
            Arrays.sort(keys);   // String's natural order: what the mapper's TreeMap of the entries gives
            for (String key : keys) o.set(key, build(map.get(key)));
            return o;
        }
        ArrayNode a = F.arrayNode();
        for (Object o : (List<?>) value) a.add(build(o));
        return a;
    }
}
