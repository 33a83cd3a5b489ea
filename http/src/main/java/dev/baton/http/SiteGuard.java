package dev.baton.http;

import dev.baton.InvalidOptionException;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.util.HostPort;
import org.jspecify.annotations.Nullable;

/**
 * Where a request comes from, checked for every request before it is routed (so for every route,
 * whoever adds it), before credentials are looked at:
 * <ol>
 *   <li>{@code Host} must name a host the server answers to (421 {@code misdirected-request}
 *       otherwise): the loopback names {@code localhost}, {@code 127.0.0.1} and {@code [::1]}, on any
 *       port, unless configured ({@link BatonHttpApi.Builder#allowedHosts}). This defeats DNS
 *       rebinding: a page of {@code attacker.example} whose name now resolves to 127.0.0.1 still sends
 *       {@code Host: attacker.example}.</li>
 *   <li>A state-changing request ({@code POST}, {@code PUT}, {@code PATCH}, {@code DELETE}) that a
 *       browser marks as coming from another origin is refused (403 {@code cross-origin}) unless
 *       that origin is trusted ({@link BatonHttpApi.Builder#trustedOrigins}): an {@code Origin} other
 *       than the request's own (its scheme's host and port as {@code Host} names them), an
 *       {@code Origin: null}, or {@code Sec-Fetch-Site} other than {@code same-origin} or
 *       {@code none} (so {@code same-site}, a page on another port of the same host, is refused too).
 *       A request without either header (a program, not a browser) passes this check.</li>
 * </ol>
 * Together with the {@code Content-Type: application/json} that every {@code POST} needs
 * ({@link RequestGuard}), a page on another origin cannot make a browser change anything: a form,
 * {@code sendBeacon} or a {@code no-cors} fetch cannot send that type, and a CORS preflight is never
 * answered.
 *
 * <p>Public for the other servlets Baton serves beside the API (the A2A servlet makes the same checks
 * with {@link #of} and {@link #refusal}); immutable and thread-safe.
 */
public final class SiteGuard {
    /** The default host names: loopback. */
    static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");
    private static final Set<String> UNSAFE = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final Set<String> hosts;          // lower case; "name" (any port) or "name:port"; "*" for any
    private final Set<String> trustedOrigins; // lower case scheme://host[:port]

    SiteGuard(Collection<String> hosts, Collection<String> trustedOrigins) {
        this.hosts = new LinkedHashSet<>();
        for (String h : hosts) this.hosts.add(host(h));
        this.trustedOrigins = new LinkedHashSet<>();
        for (String o : trustedOrigins) this.trustedOrigins.add(origin(o));
    }

    /**
     * The checks for a server that answers to {@code hosts} and trusts pages of {@code trustedOrigins}.
     *
     * @param hosts          host names as {@code name}, {@code name:port}, {@code [::1]} or {@code *}
     * @param trustedOrigins origins as {@code scheme://host[:port]} whose pages may change things
     * @return the checks
     * @throws InvalidOptionException ({@code allowedHosts}, {@code trustedOrigins}) one that is not a host or an origin
     */
    public static SiteGuard of(Collection<String> hosts, Collection<String> trustedOrigins) {
        return new SiteGuard(hosts, trustedOrigins);
    }

    /**
     * Why a request is refused, if it is.
     *
     * @param status 421 (a host this server does not answer) or 403 (a cross-origin request)
     * @param type   {@code misdirected-request} or {@code cross-origin}
     * @param title  the problem's title
     * @param detail what happened, for the client
     * @param header the header at fault: {@code Host}, {@code Origin} or {@code Sec-Fetch-Site}
     */
    public record Refusal(int status, String type, String title, String detail, String header) {
    }

    /**
     * Checks where a request comes from.
     *
     * @param method    the request's method
     * @param host      its {@code Host} header, or null
     * @param origin    its {@code Origin} header, or null
     * @param fetchSite its {@code Sec-Fetch-Site} header, or null
     * @return why it is refused, or empty if it passes
     */
    public java.util.Optional<Refusal> refusal(String method, @Nullable String host, @Nullable String origin,
                                                @Nullable String fetchSite) {
        if (!hostAllowed(host)) {
            return java.util.Optional.of(new Refusal(421, "misdirected-request", "Misdirected request",
                    host == null ? "The request names no Host; this server answers only requests naming one of its host names."
                            : "This server does not answer for the host named in the Host header. Its host names "
                            + "are configured with allowedHosts (baton.http.allowed-hosts).", "Host"));
        }
        if (!UNSAFE.contains(method.toUpperCase(Locale.ROOT))) return java.util.Optional.empty();
        boolean trusted = origin != null && trustedOrigins.contains(origin.trim().toLowerCase(Locale.ROOT));
        if (trusted) return java.util.Optional.empty();
        boolean crossOrigin = origin != null && !sameOrigin(origin, host);
        String site = fetchSite == null ? null : fetchSite.trim().toLowerCase(Locale.ROOT);
        boolean crossSite = site != null && !site.equals("same-origin") && !site.equals("none");
        if (crossOrigin || crossSite) {
            return java.util.Optional.of(new Refusal(403, "cross-origin", "Cross-origin request refused",
                    "A browser sent this request for a page of another origin; only pages of this server's own "
                            + "origin, or of an origin configured as trusted (trustedOrigins, "
                            + "baton.http.trusted-origins), may change anything here.", crossOrigin ? "Origin" : "Sec-Fetch-Site"));
        }
        return java.util.Optional.empty();
    }

    /**
     * Checks where a servlet request comes from: its {@code Host}, or for HTTP/2, which names the host
     * in {@code :authority} and may send no {@code Host}, the host the container read from it; its
     * {@code Origin} and {@code Sec-Fetch-Site}. The rule the HTTP API applies, for other servlets.
     *
     * @param request the request
     * @return why it is refused, or empty if it passes
     */
    public java.util.Optional<Refusal> refusal(HttpServletRequest request) {
        return refusal(request.getMethod(), host(request), request.getHeader("Origin"), request.getHeader("Sec-Fetch-Site"));
    }

    /** Throws the problem of a request from a host or a site this server does not answer. */
    void check(HttpServletRequest request) {
        refusal(request).ifPresent(r -> {
            throw Problem.of(r.status(), r.type(), r.title(), r.detail()).with("option", r.header()).raise();
        });
    }

    /** {@code Host}; for HTTP/2, which names the host in {@code :authority}, the one the container read from it. */
    private static @Nullable String host(HttpServletRequest request) {
        String host = request.getHeader("Host");
        if (host != null || !"HTTP/2.0".equals(request.getProtocol())) return host;
        int port = request.getServerPort();
        return port > 0 ? request.getServerName() + ":" + port : request.getServerName();
    }

    private boolean hostAllowed(@Nullable String host) {
        HostPort h = hostPort(host);
        return h != null && (hosts.contains("*") || hosts.contains(h.getHost()) || hosts.contains(h.getHost() + ":" + h.getPort()));
    }

    /** Whether the origin's host and port are the ones {@code Host} names (the scheme's default port filled in). */
    private static boolean sameOrigin(String origin, @Nullable String host) {
        URI o;
        try {
            o = new URI(origin.trim());
        } catch (URISyntaxException e) {
            return false;
        }
        HostPort h = hostPort(host);
        if (h == null || o.getScheme() == null || o.getHost() == null) return false;   // "null", or garbage
        int defaultPort = o.getScheme().equalsIgnoreCase("https") ? 443 : 80;
        int port = o.getPort() < 0 ? defaultPort : o.getPort();
        return o.getHost().toLowerCase(Locale.ROOT).equals(h.getHost()) && port == h.getPort(defaultPort);
    }

    /** The name and port {@code Host} names, lower case; null for none, or one that is not a host and port. */
    private static @Nullable HostPort hostPort(@Nullable String host) {
        try {
            return host == null || host.isBlank() ? null : new HostPort(host.trim().toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** A host name as configured: {@code example.com}, {@code example.com:8443}, {@code [::1]}, or {@code *}. */
    static String host(String h) {
        String v = h.trim().toLowerCase(Locale.ROOT);
        if (v.isEmpty() || v.contains("/") || v.contains(" ") || v.contains("@")) {
            throw new InvalidOptionException("allowedHosts", "a host name, host:port or *, was '" + h + "'");
        }
        return v;
    }

    /** An origin as configured: {@code https://app.example.com} or {@code http://127.0.0.1:3000}. */
    static String origin(String o) {
        String v = o.trim().toLowerCase(Locale.ROOT);
        while (v.endsWith("/")) v = v.substring(0, v.length() - 1);
        URI u;
        try {
            u = new URI(v);
        } catch (URISyntaxException e) {
            throw new InvalidOptionException("trustedOrigins", "not an origin: '" + o + "'");
        }
        if (u.getScheme() == null || u.getHost() == null || (u.getPath() != null && !u.getPath().isEmpty())
                || u.getQuery() != null || u.getUserInfo() != null) {
            throw new InvalidOptionException("trustedOrigins", "an origin is scheme://host[:port], was '" + o + "'");
        }
        return v;
    }
}
