package dev.baton;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The one limit every id has: run, thread, resource, agent and tool call ids alike. An id is
 * {@value #MIN_BYTES} to {@value #MAX_BYTES} bytes once encoded as UTF-8, and holds no control
 * character (no NUL, no {@code U+0000..U+001F}, no {@code U+007F..U+009F}) and no unpaired surrogate.
 *
 * <p>Core checks every id a caller hands it against this limit before anything runs (before the
 * store is called, before a model or a tool runs): {@code Agent.builder(id)}, {@code RunOptions}
 * ({@code threadId}, {@code resourceId}), the listing options, {@code ResumeOptions}, and approve,
 * decline, resume, continue, discard and cancel ({@code runId}, {@code toolCallId}). So every store
 * sees only ids it can keep (each store keeps at least {@value #MAX_BYTES} UTF-8 bytes), and a run
 * whose resource id is too long is refused before its first tool, never after.
 *
 * <p>Thread-safety: stateless; its methods may be called from any thread.
 */
public final class Ids {
    /** The shortest id, in UTF-8 bytes. */
    public static final int MIN_BYTES = 1;
    /** The longest id, in UTF-8 bytes. */
    public static final int MAX_BYTES = 255;
    /** The limit in words, as error messages state it. */
    public static final String LIMIT = "1..255 UTF-8 bytes, no control characters";

    private Ids() {
    }

    /**
     * Checks a required id.
     *
     * @param field the option's name, e.g. {@code runId}; the exception names it
     * @param id    the id
     * @return the id, unchanged
     * @throws InvalidOptionException ({@code field}) null, empty, longer than {@value #MAX_BYTES} UTF-8
     *                                bytes, or holding a control character or an unpaired surrogate
     */
    public static String require(String field, @Nullable String id) {
        if (id == null) throw new InvalidOptionException(field, "is required (" + LIMIT + ")");
        return check(field, id);
    }

    /**
     * Checks an optional id: null passes, anything else as {@link #require}.
     *
     * @param field the option's name, e.g. {@code threadId}
     * @param id    the id, or null
     * @return the id, unchanged
     * @throws InvalidOptionException ({@code field}) as {@link #require}, for a non-null id
     */
    public static @Nullable String optional(String field, @Nullable String id) {
        return id == null ? null : check(field, id);
    }

    /**
     * Whether {@code id} keeps the limit, without throwing.
     *
     * @param id an id, or null (which does not)
     * @return true if it is a valid id
     */
    public static boolean isValid(@Nullable String id) {
        return id != null && problem(id) == null;
    }

    private static String check(String field, String id) {
        String problem = problem(id);
        if (problem != null) throw new InvalidOptionException(field, problem + "; an id must be " + LIMIT);
        return id;
    }

    private static @Nullable String problem(String id) {
        if (id.isEmpty()) return "is empty";
        if (id.length() > MAX_BYTES) return "is " + utf8Length(id) + " UTF-8 bytes long";   // fast path: >= length bytes
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (Character.isISOControl(c)) return "holds control character U+" + String.format("%04X", (int) c) + " at index " + i;
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < id.length() && Character.isLowSurrogate(id.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return "holds an unpaired surrogate at index " + i;
            }
            if (Character.isLowSurrogate(c)) return "holds an unpaired surrogate at index " + i;
        }
        if (id.length() * 3 <= MAX_BYTES) return null;   // no char takes more than 3 UTF-8 bytes (a pair: 4 for 2 chars)
        int bytes = utf8Length(id);
        if (bytes > MAX_BYTES) return "is " + bytes + " UTF-8 bytes long";
        return null;
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
