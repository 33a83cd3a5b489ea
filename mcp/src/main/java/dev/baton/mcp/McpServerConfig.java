package dev.baton.mcp;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One MCP server: how to reach it, what its tools are called in Baton, which calls wait for
 * approval, and its timeouts. Immutable and thread-safe; build one with {@link #stdio} or
 * {@link #streamableHttp} and give it to {@link McpToolset.Builder#server(McpServerConfig)}.
 *
 * <pre>{@code
 * McpServerConfig files = McpServerConfig.stdio("files", "java", "-jar", "file-server.jar", "/srv/notes")
 *     .toolPrefix("files_")                                   // files_write_file, files_read_file
 *     .approval(McpApprovalPolicy.unlessReadOnly())            // default of this server
 *     .approval("write_file", McpApprovalPolicy.always())       // one tool's own rule
 *     .callTimeout(Duration.ofMinutes(2))
 *     .build();
 *
 * McpServerConfig github = McpServerConfig.streamableHttp("github", "https://mcp.example.com/mcp")
 *     .header("Authorization", "Bearer " + token)
 *     .toolFilter(name -> !name.startsWith("delete_"))          // tools the agent never sees
 *     .build();
 * }</pre>
 *
 * Every instance that may resume a run needs the same configuration (name, prefix, filter), so
 * that the tool a stored run waits on has the same name there.
 */
public final class McpServerConfig {
    /** How Baton reaches a server. */
    public enum Transport {
        /** Baton starts the server as a process and speaks JSON-RPC on its standard input and output. */
        STDIO,
        /** The server listens on an HTTP endpoint (MCP's streamable-HTTP transport). */
        STREAMABLE_HTTP
    }

    record Stdio(List<String> command, Map<String, String> environment, @Nullable Path directory) { }

    record Http(URI url, Map<String, String> headers, @Nullable Supplier<Map<String, String>> headerSupplier) { }

    private final String name;
    private final @Nullable Stdio stdio;
    private final @Nullable Http http;
    private final String toolPrefix;
    private final McpApprovalPolicy approval;
    private final Map<String, McpApprovalPolicy> toolApprovals;
    private final Predicate<String> toolFilter;
    private final Duration connectTimeout;
    private final Duration callTimeout;
    private final Duration pingAfterIdle;
    private final Duration shutdownTimeout;

    private McpServerConfig(Builder b) {
        this.name = b.name;
        this.stdio = b.stdio == null ? null
                : new Stdio(List.copyOf(b.stdio.command()), Map.copyOf(b.environment), b.directory);
        this.http = b.http == null ? null : new Http(b.http, Map.copyOf(b.headers), b.headerSupplier);
        this.toolPrefix = b.toolPrefix;
        this.approval = b.approval;
        this.toolApprovals = Map.copyOf(b.toolApprovals);
        this.toolFilter = b.toolFilter;
        this.connectTimeout = b.connectTimeout;
        this.callTimeout = b.callTimeout;
        this.pingAfterIdle = b.pingAfterIdle;
        this.shutdownTimeout = b.shutdownTimeout;
    }

    /**
     * A server Baton starts as a process: {@code command} and {@code args} as a shell would split
     * them (no shell is involved). It inherits this JVM's environment, plus
     * {@link Builder#environment(String, String)}.
     *
     * @param name    the server's name in Baton (letters, digits, {@code _ -}; 1-64): in messages, and
     *                what a policy sees as {@link McpToolCall#server()}
     * @param command the program, e.g. {@code java}, {@code npx}, {@code /usr/local/bin/server}
     * @param args    its arguments
     * @return a builder of the server's configuration
     */
    public static Builder stdio(String name, String command, String... args) {
        List<String> line = new ArrayList<>();
        line.add(Objects.requireNonNull(command, "command"));
        for (String a : args) line.add(Objects.requireNonNull(a, "args"));
        return stdio(name, line);
    }

    /**
     * {@link #stdio(String, String, String...)} with the command line as a list (program first).
     *
     * @param name        the server's name in Baton (letters, digits, {@code _ -}; 1-64)
     * @param commandLine the program, then its arguments
     * @return a builder of the server's configuration
     */
    public static Builder stdio(String name, List<String> commandLine) {
        Builder b = new Builder(name);
        b.stdio = new Stdio(McpConfigChecks.commandLine(name, commandLine), Map.of(), null);
        return b;
    }

    /**
     * A server on MCP's streamable-HTTP transport, at {@code url} (for example
     * {@code http://127.0.0.1:8080/mcp}).
     *
     * @param name the server's name in Baton (letters, digits, {@code _ -}; 1-64)
     * @param url  the MCP endpoint, {@code http} or {@code https}
     * @return a builder of the server's configuration
     */
    public static Builder streamableHttp(String name, String url) {
        Builder b = new Builder(name);
        b.http = McpConfigChecks.url(name, url);
        return b;
    }

    /** {@return the server's name in Baton} */
    public String name() {
        return name;
    }

    /** {@return how Baton reaches the server} */
    public Transport transport() {
        return stdio != null ? Transport.STDIO : Transport.STREAMABLE_HTTP;
    }

    /** {@return what is put before each of the server's tool names in Baton ({@code ""} by default)} */
    public String toolPrefix() {
        return toolPrefix;
    }

    /**
     * The policy for a call of one tool: the tool's own, else the server's.
     *
     * @param mcpToolName the tool's name on the server
     * @return its approval policy
     */
    public McpApprovalPolicy approvalFor(String mcpToolName) {
        return toolApprovals.getOrDefault(mcpToolName, approval);
    }

    /**
     * Whether the agent gets one of the server's tools (the tool filter).
     *
     * @param mcpToolName the tool's name on the server
     * @return true if the filter lets it through
     */
    public boolean includes(String mcpToolName) {
        return toolFilter.test(mcpToolName);
    }

    /** {@return how long connecting (starting the process, the MCP handshake) may take} */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** {@return how long one tool call may take before it fails with {@link McpToolCallException.Kind#TIMEOUT}} */
    public Duration callTimeout() {
        return callTimeout;
    }

    /** {@return after how long without traffic a call first checks the connection with a ping} */
    public Duration pingAfterIdle() {
        return pingAfterIdle;
    }

    /** {@return how long closing waits for a stdio process to exit before it is killed} */
    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /** {@return where the server is, for messages: the command line or the URL (no environment, no headers)} */
    public String describe() {
        if (stdio != null) return "stdio: " + String.join(" ", stdio.command().stream().map(McpConfigChecks::shorten).toList());
        URI u = java.util.Objects.requireNonNull(http).url();
        return "streamable HTTP: " + u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort())
                + (u.getRawPath() == null ? "" : u.getRawPath());
    }

    Set<String> namedTools() {
        return toolApprovals.keySet();
    }

    @Nullable Stdio stdio() {
        return stdio;
    }

    @Nullable Http http() {
        return http;
    }

    @Override
    public String toString() {
        return "McpServerConfig[" + name + ", " + describe() + "]";
    }

    /** Builder of {@link McpServerConfig}; from {@link #stdio} or {@link #streamableHttp}. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private @Nullable Stdio stdio;
        private @Nullable URI http;
        private final Map<String, String> environment = new LinkedHashMap<>();
        private @Nullable Path directory;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private @Nullable Supplier<Map<String, String>> headerSupplier;
        private String toolPrefix = "";
        private McpApprovalPolicy approval = McpApprovalPolicy.always();
        private final Map<String, McpApprovalPolicy> toolApprovals = new LinkedHashMap<>();
        private Predicate<String> toolFilter = tool -> true;
        private Duration connectTimeout = Duration.ofSeconds(30);
        private Duration callTimeout = Duration.ofSeconds(60);
        private Duration pingAfterIdle = Duration.ofSeconds(30);
        private Duration shutdownTimeout = Duration.ofSeconds(5);

        private Builder(String name) {
            this.name = McpConfigChecks.name(name);
        }

        /**
         * An environment variable for the server's process, on top of this JVM's environment (stdio only).
         *
         * @param variable the variable's name
         * @param value    its value
         * @return this builder
         */
        public Builder environment(String variable, String value) {
            requireStdio("environment");
            environment.put(Objects.requireNonNull(variable, "variable"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * The working directory of the server's process (stdio only; default: this JVM's).
         *
         * @param directory the directory
         * @return this builder
         */
        public Builder directory(Path directory) {
            requireStdio("directory");
            this.directory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /**
         * An HTTP header sent with every request, e.g. {@code Authorization} (streamable HTTP only).
         *
         * @param header the header's name
         * @param value  its value
         * @return this builder
         */
        public Builder header(String header, String value) {
            requireHttp("header");
            headers.put(Objects.requireNonNull(header, "header"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Headers computed for every request, e.g. a token that is renewed (streamable HTTP only).
         *
         * @param supplier asked before each request, from the thread that sends it (so thread-safe)
         * @return this builder
         */
        public Builder headers(Supplier<Map<String, String>> supplier) {
            requireHttp("headers");
            this.headerSupplier = Objects.requireNonNull(supplier, "supplier");
            return this;
        }

        /**
         * Put before each of the server's tool names in Baton, so that two servers' tools cannot
         * clash: with {@code "files_"}, the server's {@code write_file} is the tool
         * {@code files_write_file}.
         *
         * @param prefix letters, digits, {@code _ . -}; up to 64
         * @return this builder
         */
        public Builder toolPrefix(String prefix) {
            this.toolPrefix = McpConfigChecks.toolPrefix(name, prefix);
            return this;
        }

        /**
         * The policy of every tool of this server without its own; default {@link McpApprovalPolicy#always()}.
         *
         * @param policy the server's policy
         * @return this builder
         */
        public Builder approval(McpApprovalPolicy policy) {
            this.approval = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * The policy of one tool, by its name on the server (without the prefix). Naming a tool the
         * server does not offer fails when the tools are listed, so a typo cannot leave a tool
         * without the rule meant for it.
         *
         * @param mcpToolName the tool's name on the server
         * @param policy      its policy
         * @return this builder
         */
        public Builder approval(String mcpToolName, McpApprovalPolicy policy) {
            toolApprovals.put(McpConfigChecks.mcpToolName(name, mcpToolName), Objects.requireNonNull(policy, "policy"));
            return this;
        }

        /**
         * Which of the server's tools the agent gets; default all.
         *
         * @param filter true for each name on the server whose tool the agent gets
         * @return this builder
         */
        public Builder toolFilter(Predicate<String> filter) {
            this.toolFilter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /**
         * How long connecting may take (starting the process and the MCP handshake); default 30 s.
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = McpConfigChecks.positive(name, "connectTimeout", timeout);
            return this;
        }

        /**
         * How long one tool call may take; default 60 s.
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder callTimeout(Duration timeout) {
            this.callTimeout = McpConfigChecks.positive(name, "callTimeout", timeout);
            return this;
        }

        /**
         * After how long without traffic a call first pings the server, so that a connection that
         * died unnoticed is replaced before the call is sent (default 30 s; zero: before every call).
         *
         * @param idle zero or a positive duration
         * @return this builder
         */
        public Builder pingAfterIdle(Duration idle) {
            this.pingAfterIdle = McpConfigChecks.notNegative(name, "pingAfterIdle", idle);
            return this;
        }

        /**
         * How long {@code close()} waits for a stdio process to exit before killing it; default 5 s.
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder shutdownTimeout(Duration timeout) {
            this.shutdownTimeout = McpConfigChecks.positive(name, "shutdownTimeout", timeout);
            return this;
        }

        /** {@return the configuration, immutable} */
        public McpServerConfig build() {
            return new McpServerConfig(this);
        }

        private void requireStdio(String option) {
            if (stdio == null) {
                throw new IllegalStateException(option + "(...) is for stdio servers; '" + name + "' is a streamable-HTTP server");
            }
        }

        private void requireHttp(String option) {
            if (http == null) {
                throw new IllegalStateException(option + "(...) is for streamable-HTTP servers; '" + name + "' is a stdio server");
            }
        }
    }
}
