package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The router's path decoding: split on {@code /} first, then each segment percent-decoded once, as
 * strict UTF-8 (a bad escape or byte is a 400 naming {@code path}, never a silent U+FFFD).
 */
class RouterTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "plain|plain",
            "a%2Fb|a/b",
            "a+b|a+b",
            "100%25|100%",
            "%2e%2e|..",
            "%C3%A9t%C3%A9|été",
            "%E2%82%AC|€",
            "%F0%9F%98%80|\uD83D\uDE00",
            "%EF%BF%BD|\uFFFD",
            "é%41|éA"})
    void aSegmentIsPercentDecodedOnceAsUtf8(String raw, String decoded) {
        assertThat(Router.decodePathSegment(raw)).isEqualTo(decoded);
    }

    @Test
    void aCharacterOutsideTheBasicPlaneBesideAnEscapeStaysWhole() {
        // a path a container hands on with its UTF-8 already decoded: the surrogate pair is one character, not "??"
        assertThat(Router.decodePathSegment("%41\uD83D\uDE00")).isEqualTo("A\uD83D\uDE00");
    }

    @Test
    void overHttpARawCharacterOutsideTheBasicPlaneBesideAnEscapeStaysWhole() throws Exception {
        try (TestServer t = new TestServer()) {
            RawHttp.Response r = RawHttp.post(t.port(), "/agents/concierge/runs/%41\uD83D\uDE00/approve", TestServer.ADMIN,
                    "{\"toolCallId\":\"call_1\"}");
            assertThat(r.status()).isIn(400, 404);
            if (HttpTarget.current() instanceof HttpTarget.Jetty) {   // Jetty hands the raw UTF-8 on as characters
                assertThat(r.status()).isEqualTo(404);
                assertThat(r.asApiResponse().json().get("runId").asText()).isEqualTo("A\uD83D\uDE00");   // was "A??"
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"%", "%4", "a%zz", "%G1"})
    void aBadEscapeIsA400NamingThePath(String raw) {
        assertThatThrownBy(() -> Router.decodePathSegment(raw)).isInstanceOfSatisfying(Problem.Raised.class, e -> {
            assertThat(e.problem().status()).isEqualTo(400);
            assertThat(e.problem().extensions()).containsEntry("option", "path");
            assertThat(e.problem().detail()).contains("bad percent-escape");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"%C3", "%C3%28", "%C3x", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", "%E2%82", "%FF"})
    void bytesThatAreNotUtf8AreA400NamingThePath(String raw) {
        assertThatThrownBy(() -> Router.decodePathSegment(raw)).isInstanceOfSatisfying(Problem.Raised.class, e -> {
            assertThat(e.problem().status()).isEqualTo(400);
            assertThat(e.problem().detail()).isEqualTo("path: a segment is not UTF-8 once percent-decoded");
        });
    }

    @Test
    void theRawPathIsSplitBeforeItIsDecoded() {
        assertThat(Router.segments("/")).isEmpty();
        assertThat(Router.segments("/agents/a%2Fb/runs/")).isEqualTo(List.of("agents", "a/b", "runs", ""));
    }
}
