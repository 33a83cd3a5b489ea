package dev.baton.tck.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder between a store and its server, for tests that make the server vanish in the
 * middle of a call: {@link #kill()} closes every connection and the port (a crashed server);
 * {@link #freeze()} keeps the connections open but forwards nothing (a hung server or a dropped
 * network). Point the store at {@code 127.0.0.1:}{@link #port()} instead of the server.
 *
 * <pre>{@code
 * try (TcpProxy proxy = new TcpProxy("127.0.0.1", 5432)) {
 *     SnapshotStore store = open("...:" + proxy.port() + "...");
 *     proxy.freeze();
 *     assertThatThrownBy(() -> store.find("x")).isInstanceOf(StorageException.class);
 * }
 * }</pre>
 * Not API.
 */
public final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean blackhole;
    private volatile boolean killed;

    /**
     * Listens on a free loopback port and forwards every connection to {@code targetHost:targetPort}.
     *
     * @param targetHost the server's host
     * @param targetPort the server's port
     * @throws IOException if no port can be opened
     */
    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "tcp-proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The local port that forwards to the target.
     *
     * @return the port on 127.0.0.1
     */
    public int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                // known to kill() before they carry anything: a connection accepted while kill() ran (the pool
                // opening one in the background, on a loaded machine) is closed by it, or here, never forwarded
                sockets.add(client);
                sockets.add(upstream);
                if (!killed) upstream.connect(new InetSocketAddress(targetHost, targetPort), 5000);
                if (killed) {
                    closeQuietly(client);
                    closeQuietly(upstream);
                    continue;
                }
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // closed by kill() or freeze(), or the upstream refused: drop this connection
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (!blackhole) {
                        out.write(buf, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Swallows everything from now on, in both directions, and accepts no new connection. */
    public void freeze() {
        blackhole = true;
        closeQuietly(server);
    }

    /** Closes the port and every connection through it. */
    public void kill() {
        killed = true;
        closeQuietly(server);
        for (Socket s : sockets) closeQuietly(s);
    }

    @Override
    public void close() {
        kill();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // already closed
        }
    }
}
