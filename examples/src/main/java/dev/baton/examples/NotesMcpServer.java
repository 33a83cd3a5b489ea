package dev.baton.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A small MCP server, written with the MCP Java SDK, that keeps text notes in a folder:
 * {@code list_notes} and {@code read_note} (read-only) and {@code write_note} (replaces a note).
 * It speaks MCP over standard input and output, so {@link McpNotes} starts it as a process, the way
 * an application starts any stdio MCP server ({@code npx ...}, {@code uvx ...}, a jar).
 *
 * <p>{@code java -cp baton-examples.jar dev.baton.examples.NotesMcpServer FOLDER}
 */
public final class NotesMcpServer {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private NotesMcpServer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: NotesMcpServer FOLDER");
            System.exit(2);
        }
        Path folder = Files.createDirectories(Path.of(args[0]));
        McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
        CountDownLatch inputClosed = new CountDownLatch(1);
        InputStream in = new FilterInputStream(System.in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) inputClosed.countDown();
                return n;
            }
        };
        McpServer.sync(new StdioServerTransportProvider(json, in, System.out))
                .serverInfo("notes", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(tools(folder, json))
                .build();
        inputClosed.await();   // a stdio server ends when its client closes its input (or dies)
        System.exit(0);
    }

    private static List<SyncToolSpecification> tools(Path folder, McpJsonMapper json) {
        return List.of(
                tool(json, "list_notes", "Lists the names of the notes", "{\"type\":\"object\"}", true,
                        (exchange, request) -> {
                            try (Stream<Path> files = Files.list(folder)) {
                                List<String> names = files.map(p -> p.getFileName().toString())
                                        .filter(n -> n.endsWith(".txt")).map(n -> n.substring(0, n.length() - 4)).sorted().toList();
                                return CallToolResult.builder().structuredContent(Map.of("notes", names))
                                        .addTextContent(String.join(", ", names)).build();
                            } catch (IOException e) {
                                return error("Cannot list the notes: " + e.getMessage());
                            }
                        }),
                tool(json, "read_note", "Reads a note", """
                        {"type":"object","properties":{"name":{"type":"string","pattern":"^[A-Za-z0-9_-]{1,64}$"}},"required":["name"]}""", true,
                        (exchange, request) -> {
                            Path note = note(folder, request);
                            if (note == null || !Files.exists(note)) return error("No note named " + request.arguments().get("name"));
                            try {
                                return CallToolResult.builder().addTextContent(Files.readString(note, StandardCharsets.UTF_8)).build();
                            } catch (IOException e) {
                                return error("Cannot read the note: " + e.getMessage());
                            }
                        }),
                tool(json, "write_note", "Writes a note, replacing a note of the same name", """
                        {"type":"object","properties":{"name":{"type":"string","pattern":"^[A-Za-z0-9_-]{1,64}$"},
                         "text":{"type":"string"}},"required":["name","text"]}""", false,
                        (exchange, request) -> {
                            Path note = note(folder, request);
                            if (note == null) return error("A note name uses letters, digits, '_' and '-'");
                            String text = String.valueOf(request.arguments().get("text"));
                            try {
                                Files.writeString(note, text, StandardCharsets.UTF_8);
                            } catch (IOException e) {
                                return error("Cannot write the note: " + e.getMessage());
                            }
                            return CallToolResult.builder().addTextContent("Saved the note " + note.getFileName()).build();
                        }));
    }

    private static SyncToolSpecification tool(McpJsonMapper json, String name, String description, String schema, boolean readOnly,
                                              BiFunction<io.modelcontextprotocol.server.McpSyncServerExchange, McpSchema.CallToolRequest, CallToolResult> handler) {
        ToolAnnotations hints = ToolAnnotations.builder().readOnlyHint(readOnly).destructiveHint(!readOnly).build();
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(name).description(description).inputSchema(json, schema).annotations(hints).build())
                .callHandler(handler)
                .build();
    }

    private static @Nullable Path note(Path folder, McpSchema.CallToolRequest request) {
        Object name = request.arguments() == null ? null : request.arguments().get("name");
        return name != null && NAME.matcher(name.toString()).matches() ? folder.resolve(name + ".txt") : null;
    }

    private static CallToolResult error(String message) {
        return CallToolResult.builder().isError(true).addTextContent(message).build();
    }
}
