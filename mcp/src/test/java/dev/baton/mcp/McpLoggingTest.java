package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What Baton's MCP client logs: a server that cannot start says why, at WARN; a server's instructions stay out of INFO. */
class McpLoggingTest {
    @TempDir Path root;

    @Test
    void aServerThatCannotStartIsLoggedAtWarnWithItsOwnReasonAndTheFailureCarriesIt() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        // slf4j-simple (the tests' binding) writes to whatever System.err is at the time of each line
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (McpToolset toolset = McpToolset.of(McpServerConfig.stdio("notes", TestServers.java(), "-cp", root.toString(), "NoSuchMain")
                .connectTimeout(Duration.ofMinutes(2)).build())) {
            assertThatThrownBy(toolset::tools).isInstanceOf(McpException.class)
                    .hasMessageContaining("its process exited during the MCP handshake")
                    .hasMessageContaining("its last lines on stderr")
                    .hasMessageContaining("NoSuchMain");
        } finally {
            System.setErr(err);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertThat(log.lines().filter(l -> l.contains("WARN dev.baton.mcp.McpConnection")))
                .as("one WARN line names the server, says it could not start, and gives the server's own reason:%n%s", log)
                .anySatisfy(l -> assertThat(l).contains("MCP server 'notes'", "could not start", "NoSuchMain"));
    }

    @Test
    void theAnswerToInitializeReachesTheSdkWithoutTheServersInstructions() {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("protocolVersion", "2025-06-18");
        result.put("capabilities", Map.of("tools", Map.of()));
        result.put("serverInfo", Map.of("name", "big", "version", "1"));
        result.put("instructions", "line 1\n".repeat(40));
        McpSchema.JSONRPCResponse answer = new McpSchema.JSONRPCResponse("2.0", 1, result, null);

        McpSchema.JSONRPCMessage seen = ServerInstructions.aside("big", answer);

        assertThat(seen).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class, r -> {
            assertThat(r.id()).isEqualTo(1);
            @SuppressWarnings("unchecked")
            Map<String, Object> seenResult = (Map<String, Object>) r.result();
            assertThat(seenResult).as("the SDK logs this map at INFO: no instructions in it")
                    .doesNotContainKey("instructions")
                    .containsEntry("protocolVersion", "2025-06-18").containsKeys("capabilities", "serverInfo");
        });
        assertThat(result).as("the server's answer itself is not changed").containsKey("instructions");
    }

    @Test
    void everyOtherMessagePassesUnchanged() {
        McpSchema.JSONRPCResponse toolResult = new McpSchema.JSONRPCResponse("2.0", 2,
                Map.of("content", java.util.List.of(), "instructions", "a tool's own field"), null);
        assertThat(ServerInstructions.aside("big", toolResult)).isSameAs(toolResult);
        McpSchema.JSONRPCNotification note = new McpSchema.JSONRPCNotification("2.0", "notifications/tools/list_changed", null);
        assertThat(ServerInstructions.aside("big", note)).isSameAs(note);
    }
}
