package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.mcp.McpToolCallException.Kind;
import dev.baton.mcp.testserver.NotesServer;
import dev.baton.tool.Suspension;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an MCP server's tools look like as Baton tools, and what their results and errors become. */
class McpToolMappingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir static Path root;
    private static NotesServer.Http server;
    private static McpToolset toolset;

    @BeforeAll
    static void start() throws Exception {
        server = NotesServer.http(0, root);
        toolset = McpToolset.of(http("notes").build());
    }

    @AfterAll
    static void stop() {
        toolset.close();
        server.close();
    }

    static McpServerConfig.Builder http(String name) {
        return McpServerConfig.streamableHttp(name, "http://127.0.0.1:" + server.port() + "/mcp");
    }

    static JsonNode json(String text) throws Exception {
        return JSON.readTree(text.replace('\'', '"'));
    }

    static Tool tool(String name) {
        return toolset.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    static Object call(String name, String args) throws Exception {
        return tool(name).executor().execute(json(args), new TestContext("run-1", "call-1", 1));
    }

    @Nested
    class Definitions {

        @Test
        void everyToolOfTheServerBecomesABatonToolWithItsNameAndDescription() {
            assertThat(toolset.tools()).extracting(Tool::name).startsWith("write_file", "append_line", "read_file", "file_info",
                    "search", "always_fails", "broken", "mixed_content", "echo_meta", "add_tool", "halt");
            assertThat(tool("write_file").description()).isEqualTo("Writes a text file (replacing it)");
        }

        @Test
        void theInputSchemaIsTheServersKeywordForKeyword() throws Exception {
            assertThat(tool("search").inputSchema()).isEqualTo(json("""
                    {'type':'object','$defs':{'range':{'type':'object','properties':{'from':{'type':'string','format':'date'},
                     'to':{'type':'string','format':'date'}}}},
                     'properties':{'query':{'type':'string','minLength':2,'pattern':'^[a-z ]+$'},
                      'limit':{'type':'integer','minimum':1,'maximum':50,'default':10},
                      'sort':{'enum':['newest','oldest']},'when':{'$ref':'#/$defs/range'},
                      'tags':{'type':'array','items':{'type':'string'},'uniqueItems':true},
                      'owner':{'anyOf':[{'type':'string'},{'type':'null'}]}},
                     'required':['query'],'additionalProperties':false}"""));
            assertThat(tool("search").definition().inputSchema()).isEqualTo(tool("search").inputSchema());
        }

        @Test
        void aPrefixIsPutBeforeEveryNameAndTheFilterLeavesToolsOut() {
            try (McpToolset prefixed = McpToolset.of(http("notes").toolPrefix("notes_")
                    .toolFilter(name -> !name.equals("halt") && !name.equals("broken")).build())) {
                List<String> names = prefixed.tools().stream().map(Tool::name).toList();

                assertThat(names).contains("notes_write_file", "notes_read_file").doesNotContain("notes_halt", "notes_broken", "write_file");
            }
        }

        @Test
        void twoServersOfferingTheSameToolNameAreRefusedWithAdvice() {
            try (McpToolset clash = McpToolset.of(http("a").build(), http("b").build())) {
                assertThatThrownBy(clash::tools)
                        .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.retryable()).as("a configuration mistake").isFalse())
                        .hasMessageContaining("'a' and 'b' both offer a tool named 'write_file'")
                        .hasMessageContaining("toolPrefix");
            }
            try (McpToolset fine = McpToolset.of(http("a").build(), http("b").toolPrefix("b_").build())) {
                assertThat(fine.tools()).extracting(Tool::name).contains("write_file", "b_write_file");
            }
        }

        @Test
        void aToolNameThatCannotBeABatonNameIsRefusedWithAdvice(@TempDir Path own) throws Exception {
            String longName = "x".repeat(100);   // a valid MCP name; with a 64-character prefix past Baton's 128
            try (NotesServer.Http other = NotesServer.http(0, own);
                 McpToolset plain = McpToolset.of(McpServerConfig.streamableHttp("other", "http://127.0.0.1:" + other.port() + "/mcp").build());
                 McpToolset prefixed = McpToolset.of(McpServerConfig.streamableHttp("other", "http://127.0.0.1:" + other.port() + "/mcp")
                         .toolPrefix("p".repeat(64)).build())) {
                plain.tools().stream().filter(t -> t.name().equals("add_tool")).findFirst().orElseThrow()
                        .executor().execute(json("{'name':'" + longName + "'}"), new TestContext("r", "c", 1));

                assertThatThrownBy(prefixed::tools).isInstanceOf(McpException.class)
                        .hasMessageContaining("offers a tool '" + longName + "'").hasMessageContaining("toolFilter");
            }
        }

        @Test
        void aPerToolApprovalNamingNoToolOfTheServerIsRefused() {
            try (McpToolset typo = McpToolset.of(http("notes").approval("writefile", McpApprovalPolicy.always()).build())) {
                assertThatThrownBy(typo::tools).isInstanceOf(McpException.class)
                        .hasMessageContaining("approval(\"writefile\", ...) names no tool of the MCP server 'notes'")
                        .hasMessageContaining("write_file");
            }
        }

        @Test
        void theToolListFollowsTheServersListChangedNotification() throws Exception {
            try (McpToolset own = McpToolset.of(http("notes").build())) {
                assertThat(own.tools()).extracting(Tool::name).doesNotContain("late_tool");
                tool("add_tool").executor().execute(json("{'name':'late_tool'}"), new TestContext("r", "c", 1));

                long deadline = System.nanoTime() + 20_000_000_000L;
                while (own.tools().stream().noneMatch(t -> t.name().equals("late_tool")) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(own.tools()).extracting(Tool::name).contains("late_tool");
            }
        }
    }

    @Nested
    class Results {

        @Test
        void aSingleTextIsAString() throws Exception {
            Files.createDirectories(root.resolve("files"));
            Files.writeString(root.resolve("files/hello.txt"), "Hello, world");

            assertThat(call("read_file", "{'path':'hello.txt'}")).isEqualTo(JSON.getNodeFactory().textNode("Hello, world"));
        }

        @Test
        void structuredContentIsTheResult() throws Exception {
            assertThat(call("file_info", "{'path':'missing.txt'}")).isEqualTo(json("{'path':'missing.txt','exists':false,'bytes':0}"));
        }

        @Test
        void otherContentTypesAreDescribedNotSent() throws Exception {
            assertThat(call("mixed_content", "{}")).isEqualTo(json("""
                    [{'type':'text','text':'Here is the chart'},
                     {'type':'image','mimeType':'image/png','description':'an image (image/png, 8 bytes), not shown'},
                     {'type':'audio','mimeType':'audio/wav','description':'audio (audio/wav, 3 bytes), not included'},
                     {'type':'resource_link','uri':'file:///notes/a.txt','name':'a.txt','mimeType':'text/plain'},
                     {'type':'resource','uri':'file:///notes/b.txt','mimeType':'text/plain','text':'bee'},
                     {'type':'resource','uri':'file:///notes/c.bin','mimeType':'application/octet-stream',
                      'description':'binary content (4 bytes), not included'}]"""));
        }

        @Test
        void anIsErrorResultIsAToolErrorInTheServersWords() {
            assertThatThrownBy(() -> call("always_fails", "{'reason':'the disk is full'}"))
                    .isInstanceOfSatisfying(McpToolCallException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.TOOL_ERROR);
                        assertThat(e.retryable()).as("the tool ran and failed").isFalse();
                        assertThat(e.serverName()).isEqualTo("notes");
                        assertThat(e.toolName()).isEqualTo("always_fails");
                        assertThat(e.errorCode()).isEmpty();
                    })
                    .hasMessage("Cannot do that: the disk is full");
        }

        @Test
        void aJsonRpcErrorIsAToolErrorWithItsCode() {
            assertThatThrownBy(() -> call("broken", "{}"))
                    .isInstanceOfSatisfying(McpToolCallException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.PROTOCOL_ERROR);
                        assertThat(e.retryable()).as("the server refused").isFalse();
                        assertThat(e.errorCode()).hasValue(-32042);
                    })
                    .hasMessage("The MCP server 'notes' refused the call of broken: MCP error -32042: the notes index is corrupt (rebuild it)");
        }

        @Test
        void theIdempotencyKeyAndTheAttemptTravelInMeta() throws Exception {
            Object meta = tool("echo_meta").executor().execute(json("{}"), new TestContext("run-7", "call-3", 2));

            assertThat(meta).isEqualTo(json("""
                    {'dev.baton/idempotency-key':'run-7:call-3','dev.baton/attempt':2,
                     'dev.baton/run-id':'run-7','dev.baton/tool-call-id':'call-3'}"""));
        }

        @Test
        void argumentsThatAreNotAnObjectAreRefusedBeforeAnythingIsSent() {
            assertThatThrownBy(() -> call("read_file", "['a']")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must be a JSON object");
        }
    }

    /** The context a tool sees, for calling executors directly. */
    record TestContext(String runId, String toolCallId, int attempt) implements ToolContext {
        @Override public String agentId() { return "agent"; }
        @Override public @Nullable String threadId() { return null; }
        @Override public @Nullable String resourceId() { return null; }
        @Override public Suspension suspend(@Nullable Object payload) { throw new UnsupportedOperationException(); }
        @Override public @Nullable JsonNode resumeData() { return null; }
    }
}
