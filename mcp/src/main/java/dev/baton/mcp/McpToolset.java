package dev.baton.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.InvalidOptionException;
import dev.baton.tool.Tool;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The tools of some MCP servers, as Baton tools, and the connections to those servers.
 *
 * <pre>{@code
 * try (McpToolset mcp = McpToolset.builder()
 *         .server(McpServerConfig.stdio("files", "java", "-jar", "file-server.jar").toolPrefix("files_")
 *                 .approval(McpApprovalPolicy.unlessReadOnly()).build())
 *         .server(McpServerConfig.streamableHttp("tickets", "http://127.0.0.1:8931/mcp").build())
 *         .build();
 *      Agent agent = Agent.builder("assistant").model(model).store(store).tools(mcp.tools()).build()) {
 *     ...
 * }
 * }</pre>
 *
 * <p><b>Connections.</b> Building the toolset connects to nothing. {@link #tools()} connects to each
 * server (starting a stdio server's process) and lists its tools; a tool call uses the same
 * connection. A connection found dead (the process exited, a ping after {@code pingAfterIdle}
 * went unanswered, the request could not be delivered) is replaced before the call is sent; a
 * connection that fails while a call is under way fails that call (the model sees why) and is
 * replaced on the next one. The tool list is kept until the server sends
 * {@code notifications/tools/list_changed} or {@link #refresh()} is called.
 *
 * <p><b>Agents keep the tools they were built with.</b> A tool a server adds later reaches agents
 * built after it (call {@code tools()} again); a tool it removes answers the model with the
 * server's error. Policies read the hints of the latest list.
 *
 * <p><b>Other instances.</b> A run waiting on an MCP tool's approval is stored like any other. An
 * instance with the same configuration (server names, prefixes, filters) builds the same tool
 * names, finds the run, and on approval sends the call to its own connection.
 *
 * <p>Thread-safe. {@link #close()} closes every connection and stops every stdio server process
 * (and its children), killing what has not stopped after {@code shutdownTimeout}. Close agents
 * first, or at least stop running them: calls after {@code close()} fail.
 */
public final class McpToolset implements AutoCloseable {
    private final Map<String, McpConnection> connections;
    private final List<String> order;
    private final ObjectMapper json = new ObjectMapper();

    private McpToolset(Builder builder) {
        McpJsonMapper mapper = new JacksonMcpJsonMapper(json);
        Map<String, McpConnection> byName = new LinkedHashMap<>();
        builder.servers.forEach((name, config) -> byName.put(name, new McpConnection(config, mapper)));
        this.connections = Map.copyOf(byName);
        this.order = List.copyOf(byName.keySet());
    }

    /**
     * Starts a toolset.
     *
     * @return an empty builder: add servers
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A toolset over these servers.
     *
     * @param servers at least one server, with distinct names
     * @return the toolset (connected to nothing yet)
     * @throws InvalidOptionException ({@code server}) two servers have the same name
     */
    public static McpToolset of(McpServerConfig... servers) {
        Builder b = builder();
        for (McpServerConfig s : servers) b.server(s);
        return b.build();
    }

    /** {@return the servers, in the order they were added} */
    public List<McpServerConfig> servers() {
        return order.stream().map(name -> connections.get(name).config()).toList();
    }

    /**
     * The tools of every server, in the order the servers were added and the servers list them,
     * minus those their tool filters leave out. Connects to servers not yet connected.
     *
     * @return the tools, unmodifiable, to give to {@code AgentBuilder.tools(...)}
     * @throws McpException if a server cannot be reached or listed ({@link McpException#retryable()}
     *                      true), a tool name does not fit
     *                      Baton's rules, two servers offer the same tool name, or a per-tool
     *                      approval names a tool the server does not offer; nothing is returned
     */
    public List<Tool> tools() {
        List<Tool> all = new ArrayList<>();
        Map<String, String> serverOf = new LinkedHashMap<>();
        for (String name : order) {
            for (Tool t : tools(name)) {
                String other = serverOf.putIfAbsent(t.name(), name);
                if (other != null) {
                    throw new McpException(name, "The MCP servers '" + other + "' and '" + name + "' both offer a tool named '"
                            + t.name() + "'. Give one of them a toolPrefix (e.g. \"" + name + "_\"), or leave the tool out with toolFilter(...).");
                }
                all.add(t);
            }
        }
        return List.copyOf(all);
    }

    /**
     * The tools of one server (connecting to it if needed).
     *
     * @param serverName the server's name ({@link McpServerConfig#name()})
     * @return its tools, as {@link #tools()} gives them
     * @throws InvalidOptionException   ({@code serverName}) no server has that name
     * @throws McpException             as {@link #tools()}
     */
    public List<Tool> tools(String serverName) {
        McpConnection connection = connection(serverName);
        try {
            return McpTools.of(connection, json);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new McpException(serverName, "Interrupted while listing the tools of the MCP server '" + serverName + "'", e);
        }
    }

    /** Forgets every server's tool list: the next {@link #tools()} lists them again. */
    public void refresh() {
        connections.values().forEach(McpConnection::toolsChanged);
    }

    /** Closes every connection and stops every stdio server's process. Idempotent. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (String name : order) {
            try {
                connections.get(name).close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
                else first.addSuppressed(e);
            }
        }
        if (first != null) throw first;
    }

    McpConnection connection(String serverName) {
        Objects.requireNonNull(serverName, "serverName");
        McpConnection c = connections.get(serverName);
        if (c == null) throw new InvalidOptionException("serverName", "no MCP server '" + serverName + "' in this toolset; it has " + order);
        return c;
    }

    @Override
    public String toString() {
        return "McpToolset" + order;
    }

    /** Builder of {@link McpToolset}. Not thread-safe. */
    public static final class Builder {
        private final Map<String, McpServerConfig> servers = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Adds a server; names are unique within a toolset.
         *
         * @param server the server's configuration
         * @return this builder
         * @throws InvalidOptionException ({@code server}) a server of that name was added already
         */
        public Builder server(McpServerConfig server) {
            Objects.requireNonNull(server, "server");
            if (servers.putIfAbsent(server.name(), server) != null) {
                throw new InvalidOptionException("server", "two MCP servers named '" + server.name() + "'; names are unique within a toolset");
            }
            return this;
        }

        /**
         * The toolset; it connects to nothing until its tools are asked for.
         *
         * @return the toolset; close it
         * @throws IllegalStateException no server was added
         */
        public McpToolset build() {
            if (servers.isEmpty()) throw new IllegalStateException("an McpToolset needs at least one server(...)");
            return new McpToolset(this);
        }
    }
}
