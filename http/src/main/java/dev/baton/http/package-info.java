/**
 * An HTTP API and an approval inbox page over your agents.
 *
 * <ul>
 *   <li>{@link dev.baton.http.BatonHttpApi}: routing, JSON, Server-Sent Events, RFC 9457 problems,
 *       authentication and per-principal authorization, limits.</li>
 *   <li>{@link dev.baton.http.BatonHttpServlet}: a {@code BatonHttpApi} as one Jakarta Servlet, for
 *       any servlet container; {@link dev.baton.http.BatonHttpServer} serves it on Eclipse Jetty 12.</li>
 *   <li>{@link dev.baton.http.Authenticator}, {@link dev.baton.http.BearerTokenAuthenticator},
 *       {@link dev.baton.http.Principal}: who calls, and which runs they may see.</li>
 * </ul>
 */
@NullMarked
package dev.baton.http;

import org.jspecify.annotations.NullMarked;
