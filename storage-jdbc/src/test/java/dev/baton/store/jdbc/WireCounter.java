package dev.baton.store.jdbc;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder between a store and its PostgreSQL or MariaDB server that reads the client's
 * side of the wire protocol and records every round trip the client starts, with the SQL it
 * carries. It counts what really crosses the network, driver internals included (a
 * {@code SHOW}, a {@code SET}, a {@code BEGIN} or {@code COMMIT}, a pool's validation ping).
 *
 * <ul>
 *   <li>PostgreSQL: after the untyped start-up messages, each client message is a type byte and
 *       a length. A {@code Sync} ('S') ends an extended-protocol exchange (Parse, Bind, Execute...)
 *       and a {@code Query} ('Q') is a simple-protocol exchange: each is one round trip. The SQL
 *       of a round trip is that of each statement it binds (a server-prepared statement is
 *       parsed once and bound by name later) and of its Query.</li>
 *   <li>MariaDB/MySQL: each packet is a 3-byte length and a sequence number; a client packet with
 *       sequence number 0 starts a command (the handshake response has 1). Every command but
 *       {@code COM_STMT_CLOSE} and {@code COM_QUIT} waits for an answer: one round trip. The SQL is
 *       that of {@code COM_QUERY} and {@code COM_STMT_PREPARE}; a {@code COM_PING} is recorded as
 *       {@code "(ping)"}.</li>
 * </ul>
 */
final class WireCounter implements AutoCloseable {
    enum Protocol { POSTGRESQL, MYSQL }

    /** One round trip: the statements it carried (empty for a bare Sync). */
    record RoundTrip(List<String> statements) {
    }

    private final Protocol protocol;
    private final ServerSocket server;
    private final String host;
    private final int port;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<RoundTrip> trips = new CopyOnWriteArrayList<>();

    WireCounter(Protocol protocol, String host, int port) throws IOException {
        this.protocol = protocol;
        this.host = host;
        this.port = port;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "wire-counter");
        t.setDaemon(true);
        t.start();
    }

    /** The local port to point the store at. */
    int port() {
        return server.getLocalPort();
    }

    /** Forgets what was recorded so far. */
    void reset() {
        trips.clear();
    }

    /** The round trips since the last {@link #reset()}. */
    List<RoundTrip> trips() {
        return List.copyOf(trips);
    }

    /** The round trips since the last reset that carried SQL: a pool's validation ping (an empty query, a COM_PING) left out. */
    List<RoundTrip> statementTrips() {
        return trips.stream().filter(t -> t.statements.stream().anyMatch(s -> !s.isBlank() && !s.equals("(ping)"))).toList();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(host, port), 5000);
                sockets.add(client);
                sockets.add(upstream);
                thread(() -> clientToServer(client, upstream));
                thread(() -> pump(upstream, client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void thread(Runnable r) {
        Thread t = new Thread(r, "wire-counter-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException ignored) {
            // a side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void clientToServer(Socket client, Socket upstream) {
        try (DataInputStream in = new DataInputStream(client.getInputStream()); OutputStream out = upstream.getOutputStream()) {
            if (protocol == Protocol.POSTGRESQL) postgres(in, out);
            else mysql(in, out);
        } catch (IOException ignored) {
            // a side closed
        } finally {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    private void postgres(DataInputStream in, OutputStream out) throws IOException {
        boolean started = false;
        List<String> pending = new ArrayList<>();
        java.util.Map<String, String> prepared = new java.util.HashMap<>();   // statement name -> SQL
        while (true) {
            if (!started) {   // untyped: SSLRequest, GSSENCRequest, StartupMessage
                int length = in.readInt();
                byte[] body = in.readNBytes(length - 4);
                if (body.length < length - 4) throw new EOFException();
                writeInt(out, length);
                out.write(body);
                out.flush();
                int code = ((body[0] & 0xff) << 24) | ((body[1] & 0xff) << 16) | ((body[2] & 0xff) << 8) | (body[3] & 0xff);
                started = code == 196608;   // protocol 3.0: the start-up message itself
                continue;
            }
            int type = in.read();
            if (type < 0) throw new EOFException();
            int length = in.readInt();
            byte[] body = in.readNBytes(length - 4);
            if (body.length < length - 4) throw new EOFException();
            out.write(type);
            writeInt(out, length);
            out.write(body);
            out.flush();
            switch (type) {
                case 'P' -> prepared.put(cString(body, 0), cString(body, cStringEnd(body, 0) + 1));   // name\0 query\0 ...
                case 'B' -> pending.add(prepared.getOrDefault(cString(body, cStringEnd(body, 0) + 1), "?"));   // portal\0 name\0 ...
                case 'Q' -> {
                    pending.add(cString(body, 0));
                    trips.add(new RoundTrip(List.copyOf(pending)));
                    pending.clear();
                }
                case 'S' -> {
                    trips.add(new RoundTrip(List.copyOf(pending)));
                    pending.clear();
                }
                default -> { }
            }
        }
    }

    private void mysql(DataInputStream in, OutputStream out) throws IOException {
        while (true) {
            byte[] header = in.readNBytes(4);
            if (header.length < 4) throw new EOFException();
            int length = (header[0] & 0xff) | ((header[1] & 0xff) << 8) | ((header[2] & 0xff) << 16);
            int seq = header[3] & 0xff;
            byte[] body = in.readNBytes(length);
            if (body.length < length) throw new EOFException();
            out.write(header);
            out.write(body);
            out.flush();
            if (seq != 0 || length == 0) continue;
            int command = body[0] & 0xff;
            switch (command) {
                case 0x03, 0x16 -> trips.add(new RoundTrip(List.of(new String(body, 1, length - 1, StandardCharsets.UTF_8))));
                case 0x0e -> trips.add(new RoundTrip(List.of("(ping)")));
                case 0x19, 0x01 -> { }   // COM_STMT_CLOSE, COM_QUIT: no answer
                default -> trips.add(new RoundTrip(List.of("(command 0x" + Integer.toHexString(command) + ")")));
            }
        }
    }

    private static int cStringEnd(byte[] b, int from) {
        int i = from;
        while (i < b.length && b[i] != 0) i++;
        return i;
    }

    private static String cString(byte[] b, int from) {
        return new String(b, from, cStringEnd(b, from) - from, StandardCharsets.UTF_8);
    }

    private static void writeInt(OutputStream out, int v) throws IOException {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) closeQuietly(s);
    }
}
