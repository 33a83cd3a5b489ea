package dev.baton.a2a;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The checks every request passes before anything else, as the HTTP API makes them: the Host is one
 * the server answers to (DNS rebinding), a browser's cross-site request is refused unless its Origin
 * is allowed, a JSON-RPC call is {@code application/json} (never a "simple request" a page can send
 * cross-site) and its body is bounded. Small on purpose: it will be folded with the HTTP servlet's.
 */
final class RequestChecks {
    /** A refused request: the status and why. */
    record Refusal(int status, String message) {
    }

    private final Set<String> hosts;
    private final Set<String> origins;
    final long maxBodyBytes;

    RequestChecks(Set<String> hosts, Set<String> origins, long maxBodyBytes) {
        this.hosts = hosts;
        this.origins = origins;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Nullable Refusal check(HttpServletRequest req, boolean jsonRpc) {
        String host = req.getHeader("Host");
        if (host == null || !hosts.contains(host.toLowerCase(Locale.ROOT))) {
            return new Refusal(421, "this server does not answer to Host " + host);
        }
        String origin = req.getHeader("Origin");
        if (origin != null && !origins.contains(origin.toLowerCase(Locale.ROOT))) {
            return new Refusal(403, "cross-origin request from " + origin + " refused (not an allowed origin)");
        }
        String site = req.getHeader("Sec-Fetch-Site");
        if (origin == null && site != null && site.equalsIgnoreCase("cross-site")) {
            return new Refusal(403, "cross-site request refused");
        }
        if (jsonRpc) {
            String type = req.getContentType();
            if (type == null || !type.toLowerCase(Locale.ROOT).replace(" ", "").matches("application/json(;.*)?")) {
                return new Refusal(415, "JSON-RPC requests are application/json");
            }
            long length = req.getContentLengthLong();
            if (length > maxBodyBytes) return new Refusal(413, "the body is larger than " + maxBodyBytes + " bytes");
        }
        return null;
    }
}
