package dev.baton.mcp.testserver;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The tools of the test MCP server, written with the MCP Java SDK: a small file store under a root
 * folder, plus tools that fail in each way a server can fail. Every write is recorded in
 * {@code ledger.txt} (one line per execution, with the idempotency key and attempt Baton sent), so
 * tests count executions across processes.
 */
public final class NotesTools {
    private NotesTools() {
    }

    /** The tools, for a server whose reference {@code server} is set once it is built (for {@code add_tool}). */
    public static List<SyncToolSpecification> all(Path root, McpJsonMapper json, AtomicReference<McpSyncServer> server) {
        return List.of(
                tool(json, "write_file", "Writes a text file (replacing it)", """
                        {"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"},
                         "delay_ms":{"type":"integer","minimum":0}},"required":["path","content"],"additionalProperties":false}""",
                        ToolAnnotations.builder().title("Write file").readOnlyHint(false).destructiveHint(true).build(),
                        (exchange, request) -> write(root, request)),
                tool(json, "append_line", "Appends a line to a text file", """
                        {"type":"object","properties":{"path":{"type":"string"},"line":{"type":"string"}},"required":["path","line"]}""",
                        ToolAnnotations.builder().readOnlyHint(false).destructiveHint(false).build(),
                        (exchange, request) -> {
                            Path file = file(root, arg(request, "path"));
                            append(file, arg(request, "line") + "\n");
                            append(root.resolve("ledger.txt"), "append_line " + arg(request, "path") + " " + keyOf(request) + "\n");
                            return text("Appended to " + arg(request, "path"));
                        }),
                tool(json, "read_file", "Reads a text file", """
                        {"type":"object","properties":{"path":{"type":"string","description":"relative to the notes folder"}},"required":["path"]}""",
                        ToolAnnotations.builder().readOnlyHint(true).build(),
                        (exchange, request) -> {
                            Path file = file(root, arg(request, "path"));
                            if (!Files.exists(file)) return CallToolResult.builder().isError(true).addTextContent("No such file: " + arg(request, "path")).build();
                            return text(read(file));
                        }),
                tool(json, "file_info", "Size of a file, as structured content", """
                        {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}""",
                        ToolAnnotations.builder().readOnlyHint(true).build(),
                        (exchange, request) -> {
                            Path file = file(root, arg(request, "path"));
                            Map<String, Object> info = new LinkedHashMap<>();
                            info.put("path", arg(request, "path"));
                            info.put("exists", Files.exists(file));
                            info.put("bytes", Files.exists(file) ? size(file) : 0);
                            return CallToolResult.builder().structuredContent(info).addTextContent("(see structured content)").build();
                        }),
                tool(json, "search", "Searches notes; a schema with every kind of keyword", """
                        {"type":"object","$defs":{"range":{"type":"object","properties":{"from":{"type":"string","format":"date"},
                         "to":{"type":"string","format":"date"}}}},
                         "properties":{"query":{"type":"string","minLength":2,"pattern":"^[a-z ]+$"},
                          "limit":{"type":"integer","minimum":1,"maximum":50,"default":10},
                          "sort":{"enum":["newest","oldest"]},"when":{"$ref":"#/$defs/range"},
                          "tags":{"type":"array","items":{"type":"string"},"uniqueItems":true},
                          "owner":{"anyOf":[{"type":"string"},{"type":"null"}]}},
                         "required":["query"],"additionalProperties":false}""",
                        ToolAnnotations.builder().readOnlyHint(true).build(),
                        (exchange, request) -> text("no results for " + arg(request, "query"))),
                tool(json, "always_fails", "A tool that reports an error (isError)", """
                        {"type":"object","properties":{"reason":{"type":"string"}}}""",
                        ToolAnnotations.builder().readOnlyHint(true).build(),
                        (exchange, request) -> CallToolResult.builder().isError(true)
                                .addTextContent("Cannot do that: " + request.arguments().getOrDefault("reason", "no reason")).build()),
                tool(json, "broken", "A tool whose server fails with a JSON-RPC error", """
                        {"type":"object"}""",
                        ToolAnnotations.builder().readOnlyHint(true).build(),
                        (exchange, request) -> {
                            throw McpError.builder(-32042).message("the notes index is corrupt").data("rebuild it").build();
                        }),
                tool(json, "mixed_content", "Returns one content item of each type", """
                        {"type":"object"}""",
                        ToolAnnotations.builder().readOnlyHint(true).build(),
                        (exchange, request) -> CallToolResult.builder()
                                .addTextContent("Here is the chart")
                                .addContent(new McpSchema.ImageContent(null, "iVBORw0KGgo=", "image/png"))
                                .addContent(new McpSchema.AudioContent(null, "AAAA", "audio/wav"))
                                .addContent(McpSchema.ResourceLink.builder().uri("file:///notes/a.txt").name("a.txt").mimeType("text/plain").build())
                                .addContent(new McpSchema.EmbeddedResource(null, new McpSchema.TextResourceContents("file:///notes/b.txt", "text/plain", "bee")))
                                .addContent(new McpSchema.EmbeddedResource(null, new McpSchema.BlobResourceContents("file:///notes/c.bin", "application/octet-stream", "AAECAw==")))
                                .build()),
                tool(json, "echo_meta", "Returns the _meta of its request", """
                        {"type":"object"}""",
                        ToolAnnotations.builder().readOnlyHint(true).build(),
                        (exchange, request) -> CallToolResult.builder()
                                .structuredContent(request.meta() == null ? Map.of() : request.meta()).build()),
                tool(json, "add_tool", "Adds a tool to this server and says so (tools/list_changed)", """
                        {"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}""",
                        ToolAnnotations.builder().readOnlyHint(false).destructiveHint(false).build(),
                        (exchange, request) -> {
                            String name = arg(request, "name");
                            server.get().addTool(tool(json, name, "Added at run time", "{\"type\":\"object\"}",
                                    ToolAnnotations.builder().readOnlyHint(true).build(), (e, r) -> text("I am " + name)));
                            server.get().notifyToolsListChanged();
                            return text("Added " + name);
                        }),
                tool(json, "halt", "Stops the server's process in the middle of the call", """
                        {"type":"object"}""",
                        ToolAnnotations.builder().readOnlyHint(false).destructiveHint(false).build(),
                        (exchange, request) -> {
                            append(root.resolve("started.txt"), "halt\n");
                            Runtime.getRuntime().halt(3);
                            return text("unreachable");
                        }));
    }

    private static CallToolResult write(Path root, McpSchema.CallToolRequest request) {
        String path = arg(request, "path");
        Object delay = request.arguments().get("delay_ms");
        append(root.resolve("started.txt"), "write_file " + path + "\n");
        // a test that wants the call to run fast after a crash creates the file no-delay
        if (delay instanceof Number n && n.longValue() > 0 && !Files.exists(root.resolve("no-delay"))) {
            try {
                Thread.sleep(n.longValue());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String content = arg(request, "content");
        Path file = file(root, path);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        append(root.resolve("ledger.txt"), "write_file " + path + " " + keyOf(request) + "\n");
        return text("Wrote " + content.getBytes(StandardCharsets.UTF_8).length + " bytes to " + path);
    }

    private static String keyOf(McpSchema.CallToolRequest request) {
        Map<String, Object> meta = request.meta() == null ? Map.of() : request.meta();
        return "key=" + meta.get("dev.baton/idempotency-key") + " attempt=" + meta.get("dev.baton/attempt");
    }

    static SyncToolSpecification tool(McpJsonMapper json, String name, String description, String schema, ToolAnnotations annotations,
                                      java.util.function.BiFunction<io.modelcontextprotocol.server.McpSyncServerExchange, McpSchema.CallToolRequest, CallToolResult> handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description).inputSchema(json, schema)
                .annotations(annotations).build();
        return SyncToolSpecification.builder().tool(tool).callHandler(handler).build();
    }

    private static CallToolResult text(String text) {
        return CallToolResult.builder().addTextContent(text).build();
    }

    private static String arg(McpSchema.CallToolRequest request, String name) {
        Object v = request.arguments() == null ? null : request.arguments().get(name);
        if (v == null) throw new IllegalArgumentException("missing argument " + name);
        return v.toString();
    }

    private static Path file(Path root, String relative) {
        Path p = root.resolve("files").resolve(relative).normalize();
        if (!p.startsWith(root.resolve("files"))) throw new IllegalArgumentException("outside the notes folder: " + relative);
        return p;
    }

    private static synchronized void append(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
