package dev.baton.store.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A TCP forwarder to Redis that a test can freeze (bytes stop flowing, sockets stay open) or cut. */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        Thread acceptor = new Thread(this::accept, "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Stops forwarding bytes, as a dead peer behind a silent network would. */
    void freeze() {
        frozen = true;
    }

    /** Closes every connection and stops listening: the server is gone. */
    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) s.close();
    }

    private void accept() {
        try {
            while (true) {
                Socket client = server.accept();
                Socket upstream = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    while (frozen && !from.isClosed()) Thread.sleep(20);
                    if (from.isClosed()) return;
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // connection closed
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }
}
