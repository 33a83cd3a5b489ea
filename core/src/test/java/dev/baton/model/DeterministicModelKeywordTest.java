package dev.baton.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeterministicModelKeywordTest {
    /** Letters that lower in every way: ASCII, Latin-1 (À, ß, µ, ÿ), and beyond (İ lowers to two characters, Σ by context). */
    private static final String ALPHABET = "aAbBfFlLiItT ÀàßµÿÞİıΣσςKk\u212A";

    @Test
    void aKeywordMatchesExactlyWhenTheLoweredTextContainsItAsBefore() {
        SplittableRandom r = new SplittableRandom(39);
        List<String> keywords = List.of("flight", "a", "à", "ß", "i", "i\u0307", "σ", "ς", "k", "ti", "");
        for (int n = 0; n < 20_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = r.nextInt(12);
            boolean latin1 = r.nextBoolean();
            for (int i = 0; i < length; i++) {
                char c = ALPHABET.charAt(r.nextInt(ALPHABET.length()));
                if (latin1 && c > 0xFF) c = 'F';
                text.append(c);
            }
            if (r.nextInt(4) == 0) text.insert(r.nextInt(text.length() + 1), "FLIGHT");
            String t = text.toString();
            DeterministicModel.Lowered lowered = new DeterministicModel.Lowered(t);
            for (String k : keywords) {
                String keyword = k.toLowerCase(Locale.ROOT);   // as the builder keeps it
                assertThat(lowered.contains(keyword)).as("'" + t + "' contains '" + keyword + "'")
                        .isEqualTo(t.toLowerCase(Locale.ROOT).contains(keyword));
            }
        }
    }
}
