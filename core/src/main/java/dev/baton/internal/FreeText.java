package dev.baton.internal;

import dev.baton.InvalidOptionException;
import org.jspecify.annotations.Nullable;

/**
 * The one rule for free text a caller hands core to be stored (a decision's reason and actor, an
 * idempotency key, an expiry policy's reason, a thread's title, the actor filter of the audit
 * trail): it holds no NUL ({@code U+0000}) and no unpaired surrogate, which some stores cannot keep
 * (PostgreSQL's text refuses NUL; an unpaired surrogate is no UTF-8 at all). Refused with an
 * {@link InvalidOptionException} naming the field before anything runs, on every store alike.
 * Line breaks and other characters are kept verbatim. Not API.
 */
public final class FreeText {
    private FreeText() {
    }

    /**
     * Checks optional free text.
     *
     * @param field the option's name; the exception names it
     * @param text  the text, or null (which passes)
     * @return the text, unchanged
     * @throws InvalidOptionException ({@code field}) the text holds NUL or an unpaired surrogate
     */
    public static @Nullable String check(String field, @Nullable String text) {
        if (text == null) return null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                throw new InvalidOptionException(field, "holds NUL (U+0000) at index " + i + ": free text must hold no NUL"
                        + " and no unpaired surrogate");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidOptionException(field, "holds an unpaired surrogate at index " + i + ": free text must hold"
                        + " no NUL and no unpaired surrogate");
            }
        }
        return text;
    }
}
