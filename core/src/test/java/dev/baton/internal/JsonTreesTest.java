package dev.baton.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link JsonTrees#valueToTree} against Jackson's own {@code valueToTree}, on seeded random values, with both of core's mappers. */
class JsonTreesTest {
    /** The model's mapper ({@code DeterministicModel}): sorted map entries, nothing else. */
    private static final ObjectMapper SORTED = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    record Pojo(String name, int n) { }

    @Test
    void theTreeIsTheOneJacksonBuildsOnRandomValues() {
        SplittableRandom r = new SplittableRandom(39);
        int built = 0;
        for (int i = 0; i < 20_000; i++) {
            Object value = value(r, 0);
            for (ObjectMapper m : List.of(SnapshotCodec.JSON, SORTED)) {
                JsonNode expected = m.valueToTree(value);
                JsonNode actual = JsonTrees.valueToTree(m, value);
                // equals ignores the order of an object's fields and compares node classes (an int is not a long);
                // the text holds the order
                assertThat(actual).as("value %s", value).isEqualTo(expected);
                assertThat(String.valueOf(actual)).as("value %s", value).isEqualTo(String.valueOf(expected));
            }
            if (JsonTrees.builtByHand(value)) built++;
        }
        assertThat(built).as("values built by hand, not by the fallback").isGreaterThan(5_000);
    }

    @Test
    void theTreeIsNewEachTime() {
        Map<String, Object> value = Map.of("booked", "SFO", "seats", List.of(1, 2L));
        JsonNode a = JsonTrees.valueToTree(SnapshotCodec.JSON, value);
        JsonNode b = JsonTrees.valueToTree(SnapshotCodec.JSON, value);
        assertThat(a).isEqualTo(b).isNotSameAs(b);
        assertThat(a.toString()).isEqualTo("{\"booked\":\"SFO\",\"seats\":[1,2]}");
        assertThat(JsonTrees.valueToTree(SnapshotCodec.JSON, null)).isEqualTo(SnapshotCodec.JSON.valueToTree(null));
    }

    private static Object value(SplittableRandom r, int depth) {
        int kind = r.nextInt(depth > 3 ? 5 : 16);
        switch (kind) {
            case 0, 1: return string(r);
            case 2: return r.nextBoolean();
            case 3: return r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(-5, 100);
            case 4: return r.nextInt(3) == 0 ? r.nextLong() : (long) r.nextInt(-5, 100);
            case 5, 6: {   // a HashMap or LinkedHashMap, keys in any order
                Map<String, Object> m = r.nextBoolean() ? new HashMap<>() : new LinkedHashMap<>();
                int n = r.nextInt(6);
                for (int k = 0; k < n; k++) m.put(string(r), value(r, depth + 1));
                return m;
            }
            case 7: {   // Map.of, of one to three entries
                String k1 = "a" + string(r), k2 = "b" + string(r), k3 = "c" + string(r);
                int n = r.nextInt(4);
                return n == 0 ? Map.of() : n == 1 ? Map.of(k1, value(r, depth + 1))
                        : n == 2 ? Map.of(k2, value(r, depth + 1), k1, value(r, depth + 1))
                        : Map.of(k3, value(r, depth + 1), k1, value(r, depth + 1), k2, value(r, depth + 1));
            }
            case 8, 9: {
                int n = r.nextInt(5);
                List<Object> l = new ArrayList<>();
                for (int k = 0; k < n; k++) l.add(value(r, depth + 1));
                return r.nextBoolean() ? l : List.copyOf(l);
            }
            case 10: {   // values the mapper builds: nulls, other numbers, sets, arrays, records, sorted maps
                return switch (r.nextInt(10)) {
                    case 0 -> r.nextDouble();
                    case 1 -> (short) r.nextInt(100);
                    case 2 -> new BigDecimal(r.nextInt(1000)).movePointLeft(2);
                    case 3 -> new TreeSet<>(List.of("b", "a"));
                    case 4 -> new String[] {"x", "y"};
                    case 5 -> new Pojo(string(r), r.nextInt(10));
                    case 6 -> {
                        Map<String, Object> m = new TreeMap<>(Collections.reverseOrder());
                        m.put("a", 1);
                        m.put("b", 2);
                        yield m;
                    }
                    case 7 -> {
                        Map<String, Object> m = new HashMap<>();
                        m.put("k", null);
                        yield m;
                    }
                    case 8 -> Arrays.asList("x", null);
                    default -> Map.of(1, "not a string key");
                };
            }
            default: {   // a value with something the mapper builds inside
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("z", string(r));
                m.put("a", r.nextFloat());
                return m;
            }
        }
    }

    private static String string(SplittableRandom r) {
        int n = r.nextInt(8);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(10);
            if (kind < 6) b.append((char) ('a' + r.nextInt(26)));
            else if (kind == 6) b.append((char) r.nextInt(0x20));                 // control characters
            else if (kind == 7) b.append("\"\\/é");
            else if (kind == 8) b.append((char) (0xD800 + r.nextInt(0x800)));   // a lone surrogate
            else b.appendCodePoint(0x1F600 + r.nextInt(50));
        }
        return b.toString();
    }
}
