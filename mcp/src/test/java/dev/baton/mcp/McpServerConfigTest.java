package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Configuration mistakes are refused when the configuration is built, before anything connects, naming the option. */
class McpServerConfigTest {

    @Test
    void aServerNameMustBeShortAndPlain() {
        assertThatThrownBy(() -> McpServerConfig.stdio("my server", "java"))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("name")).hasMessageContaining("'my server'");
        assertThatThrownBy(() -> McpServerConfig.streamableHttp("x".repeat(65), "http://127.0.0.1/mcp"))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("name")).hasMessageContaining("1-64");
    }

    @Test
    void aStdioServerNeedsAProgram() {
        assertThatThrownBy(() -> McpServerConfig.stdio("fs", java.util.List.of()))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("commandLine")).hasMessageContaining("'fs' needs a program");
    }

    @Test
    void anHttpServerNeedsAnHttpUrlWithAHost() {
        assertThatThrownBy(() -> McpServerConfig.streamableHttp("gh", "ftp://127.0.0.1/mcp"))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("url")).hasMessageContaining("http:// or https://");
        assertThatThrownBy(() -> McpServerConfig.streamableHttp("gh", "not a url"))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("url")).hasMessageContaining("'gh'");
    }

    @Test
    void transportOptionsBelongToTheirTransport() {
        assertThatThrownBy(() -> McpServerConfig.streamableHttp("gh", "http://127.0.0.1/mcp").environment("A", "b"))
                .isInstanceOf(IllegalStateException.class).hasMessage("environment(...) is for stdio servers; 'gh' is a streamable-HTTP server");
        assertThatThrownBy(() -> McpServerConfig.stdio("fs", "java").header("Authorization", "x"))
                .isInstanceOf(IllegalStateException.class).hasMessage("header(...) is for streamable-HTTP servers; 'fs' is a stdio server");
    }

    @Test
    void aPrefixUsesToolNameCharacters() {
        assertThatThrownBy(() -> McpServerConfig.stdio("fs", "java").toolPrefix("fs/"))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("toolPrefix")).hasMessageContaining("'fs/'");
        assertThat(McpServerConfig.stdio("fs", "java").toolPrefix("fs.").build().toolPrefix()).isEqualTo("fs.");
    }

    @Test
    void timeoutsArePositive() {
        assertThatThrownBy(() -> McpServerConfig.stdio("fs", "java").callTimeout(Duration.ZERO))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("callTimeout")).hasMessageContaining("callTimeout");
        assertThatThrownBy(() -> McpServerConfig.stdio("fs", "java").pingAfterIdle(Duration.ofSeconds(-1)))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("pingAfterIdle")).hasMessageContaining("pingAfterIdle");
    }

    @Test
    void aToolsOwnPolicyWinsOverTheServers() {
        McpServerConfig config = McpServerConfig.stdio("fs", "java").approval(McpApprovalPolicy.never())
                .approval("write_file", McpApprovalPolicy.always()).build();
        McpToolCall call = new McpToolCall("fs", "x", "x", new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode(),
                McpToolHints.NONE, new dev.baton.tool.ApprovalContext("a", "r", "c", "x", null, null));

        assertThat(config.approvalFor("write_file").requiresApproval(call)).isTrue();
        assertThat(config.approvalFor("read_file").requiresApproval(call)).isFalse();
    }

    @Test
    void everyToolWaitsForApprovalByDefault() {
        McpServerConfig config = McpServerConfig.stdio("fs", "java").build();
        McpToolCall call = new McpToolCall("fs", "read_file", "read_file", new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode(),
                new McpToolHints(null, true, false, true, false), new dev.baton.tool.ApprovalContext("a", "r", "c", "read_file", null, null));

        assertThat(config.approvalFor("read_file").requiresApproval(call)).isTrue();
    }

    @Test
    void describeShowsWhereTheServerIsButNoSecrets() {
        McpServerConfig http = McpServerConfig.streamableHttp("gh", "https://user:pw@mcp.example.com:8443/mcp?token=secret")
                .header("Authorization", "Bearer secret").build();
        McpServerConfig stdio = McpServerConfig.stdio("fs", "npx", "server", "/srv").environment("TOKEN", "secret")
                .directory(Path.of("/tmp")).build();

        assertThat(http.describe()).isEqualTo("streamable HTTP: https://mcp.example.com:8443/mcp");
        assertThat(stdio.describe()).isEqualTo("stdio: npx server /srv");
        assertThat(http.transport()).isEqualTo(McpServerConfig.Transport.STREAMABLE_HTTP);
        assertThat(stdio.transport()).isEqualTo(McpServerConfig.Transport.STDIO);
    }

    @Test
    void serverNamesAreUniqueInAToolset() {
        McpToolset.Builder builder = McpToolset.builder().server(McpServerConfig.stdio("fs", "java").build());

        assertThatThrownBy(() -> builder.server(McpServerConfig.stdio("fs", "node").build()))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("server")).hasMessageContaining("two MCP servers named 'fs'");
        assertThatThrownBy(() -> McpToolset.builder().build()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theHintsFollowTheSpecificationsDefaults() {
        assertThat(McpToolHints.NONE.readOnly()).isFalse();
        assertThat(McpToolHints.NONE.destructive()).isTrue();
        assertThat(new McpToolHints(null, false, false, null, null).destructive()).isFalse();
        assertThat(new McpToolHints(null, true, true, null, null).destructive()).as("read-only wins").isFalse();
        assertThat(McpToolHints.NONE.idempotent()).isFalse();
    }
}
