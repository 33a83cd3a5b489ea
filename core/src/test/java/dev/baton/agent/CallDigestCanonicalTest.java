package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
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
}
