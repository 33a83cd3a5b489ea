package dev.baton.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterministicModelWordsTest {
    @Test
    void anAnswerStreamsWordByWordWithTheSpacesAfterEachAsTheRegexSplitDid() {
        for (String text : List.of("", " ", "Done.", "You said: book a flight", "a  b", "trailing ", "  leading", "x y z  ")) {
            List<String> chunks = DeterministicModel.words(text).map(c -> ((ModelChunk.TextDelta) c).text()).toList();
            assertThat(chunks).as("'" + text + "'").isEqualTo(Arrays.asList(text.split("(?<= )")));
        }
    }
}
