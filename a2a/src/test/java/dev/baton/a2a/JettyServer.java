package dev.baton.a2a;

import jakarta.servlet.http.HttpServlet;
import java.net.URI;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** An embedded Jetty 12 (ee10) on a free loopback port, serving one servlet under {@code path}. */
final class JettyServer implements AutoCloseable {
    private final Server server;
    final int port;

    private JettyServer(Server server, int port) {
        this.server = server;
        this.port = port;
    }

    /** Starts Jetty on {@code port} (0: any free one). */
    static JettyServer start(int port, String path, java.util.function.Function<URI, HttpServlet> servlet) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        connector.setIdleTimeout(30_000);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        server.setHandler(context);
        server.start();
        int bound = connector.getLocalPort();
        URI url = URI.create("http://127.0.0.1:" + bound + path);
        try {
            context.addServlet(new ServletHolder(servlet.apply(url)), path + "/*");
        } catch (RuntimeException e) {
            server.stop();
            throw e;
        }
        return new JettyServer(server, bound);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
