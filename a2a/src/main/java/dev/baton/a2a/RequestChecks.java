package dev.baton.a2a;

import dev.baton.http.SiteGuard;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The checks every request passes before anything else: where it comes from as the HTTP API checks it
 * (baton-http's {@link SiteGuard}: the Host is one the server answers to, against DNS rebinding; a
 * browser's state-changing request from another origin is refused unless that origin is allowed), then
 * what only JSON-RPC needs: {@code application/json} (never a "simple request" a page can send
 * cross-site) and a bounded body.
 */
final class RequestChecks {
    /** A refused request: the status and why. */
    record Refusal(int status, String message) {
    }

    private final SiteGuard site;
    final long maxBodyBytes;

    RequestChecks(Set<String> hosts, Set<String> origins, long maxBodyBytes) {
        this.site = SiteGuard.of(hosts, origins);
        this.maxBodyBytes = maxBodyBytes;
    }

    @Nullable Refusal check(HttpServletRequest req, boolean jsonRpc) {
        SiteGuard.Refusal where = site.refusal(req).orElse(null);   // Host, or HTTP/2's :authority, as the HTTP API reads it
        if (where != null) return new Refusal(where.status(), where.detail());
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
