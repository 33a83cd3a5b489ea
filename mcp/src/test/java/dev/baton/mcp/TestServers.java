package dev.baton.mcp;

import dev.baton.mcp.testserver.NotesServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts the test MCP server ({@link NotesServer}) the ways the tests need it. */
final class TestServers {
    private TestServers() {
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The command line of the stdio server over {@code root}. */
    static List<String> stdioCommand(Path root, String... extra) {
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx128m", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), NotesServer.class.getName(), "stdio", root.toString()));
        cmd.addAll(List.of(extra));
        return cmd;
    }

    /** A stdio server over {@code root}, with short timeouts for tests. */
    static McpServerConfig.Builder stdio(String name, Path root, String... extra) {
        return McpServerConfig.stdio(name, stdioCommand(root, extra)).connectTimeout(Duration.ofSeconds(60));
    }

    /** The ledger lines of {@code root}: one per executed write. */
    static List<String> ledger(Path root) throws IOException {
        Path ledger = root.resolve("ledger.txt");
        return Files.exists(ledger) ? Files.readAllLines(ledger, StandardCharsets.UTF_8) : List.of();
    }

    /** The streamable-HTTP server in another JVM, so that it can die as a real server does. */
    static final class HttpProcess implements AutoCloseable {
        final Process process;
        final int port;

        private HttpProcess(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        static HttpProcess start(int port, Path root) throws IOException, InterruptedException {
            Files.createDirectories(root);
            List<String> cmd = List.of(java(), "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    NotesServer.class.getName(), "http", Integer.toString(port), root.toString());
            Process p = new ProcessBuilder(cmd).redirectError(root.resolve("http-server.stderr.log").toFile()).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !line.startsWith("listening ")) {
                p.destroyForcibly();
                throw new IllegalStateException("the HTTP test server did not start: " + line + "; see " + root.resolve("http-server.stderr.log"));
            }
            return new HttpProcess(p, Integer.parseInt(line.substring("listening ".length()).trim()));
        }

        String url() {
            return "http://127.0.0.1:" + port + "/mcp";
        }

        /** {@code kill -9}. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            if (!process.waitFor(30, TimeUnit.SECONDS)) throw new IllegalStateException("the HTTP test server did not die");
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) kill();
        }
    }
}
