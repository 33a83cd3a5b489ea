/**
 * Baton agents over A2A (protocol 0.3.0): {@link dev.baton.a2a.A2aServlet} serves an agent,
 * {@link dev.baton.a2a.A2aTool} calls a remote agent, {@link dev.baton.a2a.A2aPushChannel} delivers
 * push notifications. See docs/a2a.md.
 */
@NullMarked
package dev.baton.a2a;

import org.jspecify.annotations.NullMarked;
