package dev.baton.tck;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.TcpProxy;
import java.time.Duration;
import java.util.Objects;

/**
 * The optional hook through which {@link SnapshotStoreContract} breaks the link between a store and
 * its backend, to check that failures are {@link dev.baton.StorageException}s naming the store and
 * that calls time out instead of hanging. A store's test supplies it by overriding
 * {@link SnapshotStoreContract#faults()}; without it those tests are skipped, and the certification
 * report says so.
 *
 * <p>For a store that talks to a server over TCP, {@link #throughProxy} does everything: it puts a
 * {@link TcpProxy} between the store and the server.
 *
 * <pre>{@code
 * @Override
 * protected Optional<StoreFaults> faults() throws Exception {
 *     return Optional.of(StoreFaults.throughProxy("127.0.0.1", 5432, Duration.ofSeconds(5),
 *             (host, port) -> SnapshotStores.open("jdbc:postgresql://" + host + ":" + port + "/test",
 *                     Map.of("connectTimeout", "2", "socketTimeout", "3", "queryTimeout", "3"))));
 * }
 * }</pre>
 *
 * A store without a network link implements the interface itself, e.g. by removing the directory
 * a file store writes to in {@link #cut()}, and leaves {@link #silence()} unsupported.
 *
 * <p>The TCK uses one instance from one test thread at a time, and closes it (restoring the link,
 * closing the store and the proxy it opened) after the test.
 */
public interface StoreFaults extends AutoCloseable {

    /**
     * A store on the backend under test whose link this object breaks; the same one on every call.
     *
     * @return the store the {@code Faults} tests call
     */
    SnapshotStore store();

    /**
     * Breaks the link as a crashed server or a dropped connection does. From then on every call of
     * {@link #store()} must fail with a {@link dev.baton.StorageException} within {@link #callTimeout()}.
     *
     * @throws Exception if the link cannot be broken: the test fails with it
     */
    void cut() throws Exception;

    /**
     * Keeps the link open but lets nothing through, as a hung server or a silent network does. From
     * then on every call must fail with a {@link dev.baton.StorageException} within
     * {@link #callTimeout()} instead of blocking. The default throws
     * {@link UnsupportedOperationException}: the test is then skipped.
     *
     * @throws Exception if the backend cannot be silenced: the test fails with it
     */
    default void silence() throws Exception {
        throw new UnsupportedOperationException("this StoreFaults cannot make the backend go silent");
    }

    /**
     * The longest one call of {@link #store()} may block after a fault before it fails; the TCK adds 10 s of slack.
     *
     * @return the store's own call timeout, as configured for {@link #store()}
     */
    Duration callTimeout();

    /** Closes {@link #store()} and whatever the faults needed (a proxy). */
    @Override
    void close() throws Exception;

    /** Opens a store on a server reached at {@code host:port}. */
    @FunctionalInterface
    interface Opener {
        /**
         * Opens the store under test on the server at {@code host:port} (a proxy, here).
         *
         * @param host the host to connect to
         * @param port the port to connect to
         * @return a store on that server, with short timeouts
         * @throws Exception if the store cannot be opened
         */
        SnapshotStore open(String host, int port) throws Exception;
    }

    /**
     * Faults through a {@link TcpProxy} in front of the server at {@code host:port}: {@link #cut()}
     * is {@link TcpProxy#kill()}, {@link #silence()} is {@link TcpProxy#freeze()}.
     *
     * @param host        the server's host
     * @param port        the server's port
     * @param callTimeout the longest a call may block once the server is gone (the store's own
     *                    timeouts, as {@code opener} configures them)
     * @param opener      opens the store on the proxy's loopback address
     * @return faults that kill or freeze the proxy; closing them closes the store and the proxy
     * @throws Exception if the proxy cannot listen or the store cannot be opened
     */
    static StoreFaults throughProxy(String host, int port, Duration callTimeout, Opener opener) throws Exception {
        Objects.requireNonNull(callTimeout, "callTimeout");
        TcpProxy proxy = new TcpProxy(host, port);
        SnapshotStore store;
        try {
            store = opener.open("127.0.0.1", proxy.port());
        } catch (Exception | Error e) {
            proxy.close();
            throw e;
        }
        return new StoreFaults() {
            @Override
            public SnapshotStore store() {
                return store;
            }

            @Override
            public void cut() {
                proxy.kill();
            }

            @Override
            public void silence() {
                proxy.freeze();
            }

            @Override
            public Duration callTimeout() {
                return callTimeout;
            }

            @Override
            public void close() {
                try {
                    store.close();
                } finally {
                    proxy.close();
                }
            }
        };
    }
}
