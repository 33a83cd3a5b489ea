/**
 * Helpers of the TCK's rule groups and of Baton's own store tests. <strong>Not API: anything here
 * may change or disappear in any release, patch releases included.</strong>
 *
 * <p>A store's tests need nothing from this package to be certified: the contracts of
 * {@code dev.baton.tck} and their hooks are the TCK's API (see the compatibility policy in the
 * {@linkplain dev.baton.tck package documentation}). A store's own tests may use these helpers, as
 * Baton's do ({@link dev.baton.tck.support.Snapshots} to build runs, {@link dev.baton.tck.support.TcpProxy}
 * to make a server vanish), on the understanding that a TCK upgrade may break them.
 */
package dev.baton.tck.support;
