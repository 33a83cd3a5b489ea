package dev.baton.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.jspecify.annotations.Nullable;

/**
 * The listing as a cheap conditional poll (issue 25's live inbox): every {@code 200} page carries a
 * weak {@code ETag} computed from its content without {@code asOf} (the server's clock, which changes
 * on every read), and a request whose {@code If-None-Match} names the current tag is answered
 * {@code 304 Not Modified} with no body. The inbox page ({@code inbox/live.js}) polls this way.
 *
 * <p>What it saves, honestly: the bytes on the wire and the page's re-rendering. The store is still
 * queried on every poll (the tag is the content's, so it is exactly as fresh as the listing); the
 * page's cost is measured in docs/notifications.md. The tag is of what this caller may see (the
 * listing is scoped to the principal's resources before it is tagged), so it leaks nothing of others' runs.
 */
final class ListingETag {
    /** The last field of a page ({@link RunJson.Page}): excluded from the tag. */
    private static final String AS_OF = ",\"asOf\":";

    private ListingETag() {
    }

    /** {@code inner}, made conditional: {@code ETag} on its 200s, {@code 304} when {@code If-None-Match} names it. */
    static Router.Handler conditional(Router.Handler inner) {
        return request -> {
            ApiResponse r = inner.handle(request);
            if (r.status() != 200 || r.body() == null) return r;
            String tag = tag(r.body());
            return matches(request.header("If-None-Match"), tag) ? ApiResponse.notModified(tag) : r.withHeader("ETag", tag);
        };
    }

    /** {@code W/"..."}: the first 128 bits of the SHA-256 of the page without its {@code asOf}, base64url. */
    static String tag(byte[] page) {
        String text = new String(page, StandardCharsets.UTF_8);
        int end = text.lastIndexOf(AS_OF);
        byte[] d = BearerTokenAuthenticator.sha256(end < 0 ? text : text.substring(0, end));
        return "W/\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(d, 16)) + "\"";
    }

    /** RFC 9110's weak comparison: {@code *}, or one of the listed tags equal to {@code tag} ignoring {@code W/}. */
    static boolean matches(@Nullable String ifNoneMatch, String tag) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) return false;
        String opaque = tag.substring(2);
        for (String t : ifNoneMatch.split(",")) {
            String s = t.trim();
            if (s.equals("*")) return true;
            if (s.startsWith("W/")) s = s.substring(2);
            if (s.equals(opaque)) return true;
        }
        return false;
    }
}
