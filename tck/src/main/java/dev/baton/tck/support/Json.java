package dev.baton.tck.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Small JSON builders for tests. Not API. */
public final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    /**
     * An object from alternating keys and values, e.g. {@code object("to", "SFO")}.
     *
     * @param keysAndValues key, value, key, value...
     * @return a new object node
     */
    public static ObjectNode object(Object... keysAndValues) {
        ObjectNode node = MAPPER.createObjectNode();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            node.set(String.valueOf(keysAndValues[i]), MAPPER.valueToTree(keysAndValues[i + 1]));
        }
        return node;
    }
}
