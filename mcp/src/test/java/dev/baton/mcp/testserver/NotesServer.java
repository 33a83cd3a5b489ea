package dev.baton.mcp.testserver;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * The test MCP server, on the SDK: {@code stdio ROOT [--spawn-child PIDFILE] [--ignore-term]} speaks
 * MCP on standard input and output and exits when its input closes; {@code http PORT ROOT} serves
 * streamable HTTP on 127.0.0.1 (embedded Tomcat) and prints {@code listening PORT} when ready.
 */
public final class NotesServer {
    private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());

    private NotesServer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("stdio")) {
            stdio(Path.of(args[1]), args);
        } else if (args.length == 3 && args[0].equals("http")) {
            Http http = http(Integer.parseInt(args[1]), Path.of(args[2]));
            System.out.println("listening " + http.port());
            System.out.flush();
            Thread.currentThread().join();
        } else {
            System.err.println("usage: stdio ROOT [--spawn-child PIDFILE] [--ignore-term] | http PORT ROOT");
            System.exit(2);
        }
    }

    private static void stdio(Path root, String[] args) throws Exception {
        for (int i = 2; i < args.length; i++) {
            if (args[i].equals("--spawn-child")) {
                // like npx starting node: a grandchild of the client, which a plain SIGTERM to us leaves behind
                Process child = new ProcessBuilder("sleep", "600").start();
                Files.writeString(Path.of(args[++i]), ProcessHandle.current().pid() + " " + child.pid(), StandardCharsets.UTF_8);
            } else if (args[i].equals("--ignore-term")) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        Thread.sleep(600_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
        }
        CountDownLatch inputClosed = new CountDownLatch(1);
        InputStream in = new FilterInputStream(System.in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) inputClosed.countDown();
                return n;
            }

            @Override
            public int read() throws IOException {
                int c = super.read();
                if (c < 0) inputClosed.countDown();
                return c;
            }
        };
        AtomicReference<McpSyncServer> server = new AtomicReference<>();
        server.set(McpServer.sync(new StdioServerTransportProvider(JSON, in, System.out))
                .serverInfo("notes", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(NotesTools.all(root, JSON, server))
                .build());
        inputClosed.await();   // the client closed our input (or died): a stdio server ends with it
        System.exit(0);
    }

    /** A running streamable-HTTP server. */
    public record Http(Tomcat tomcat, McpSyncServer server, int port) implements AutoCloseable {
        @Override
        public void close() {
            server.close();
            try {
                tomcat.stop();
                tomcat.destroy();
            } catch (LifecycleException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Starts the server on 127.0.0.1:{@code port} (0: any free port), endpoint {@code /mcp}. */
    public static Http http(int port, Path root) throws LifecycleException, IOException {
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(JSON).mcpEndpoint("/mcp").build();
        AtomicReference<McpSyncServer> server = new AtomicReference<>();
        // The tool handlers run on Tomcat's request thread, which writes the answer and completes the response. By default
        // the SDK runs them on Reactor's boundedElastic, and that thread's write of the answer sometimes failed under CPU load
        // ("Failed to send message to session ...: Client disconnected", the client still waiting): Tomcat then closed the
        // connection without the answer, and a JSON-RPC error reached the client as a lost connection (EOFException).
        server.set(McpServer.sync(transport)
                .immediateExecution(true)
                .serverInfo("notes", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(NotesTools.all(root, JSON, server))
                .build());
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createDirectories(root.resolve("tomcat")).toString());
        Connector connector = new Connector();
        connector.setPort(port);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "mcp", transport).setAsyncSupported(true);
        context.addServletMappingDecoded("/*", "mcp");
        tomcat.start();
        return new Http(tomcat, server.get(), connector.getLocalPort());
    }
}
