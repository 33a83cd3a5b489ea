package dev.baton.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link McpNotes}: an agent whose file-writing MCP tool waits in the inbox until a person approves it. */
class McpNotesTest {
    @TempDir Path dir;

    private String store() {
        return "jdbc:sqlite:" + dir.resolve("notes.db");
    }

    private Path notes() {
        return dir.resolve("notes");
    }

    /** Runs a command in this JVM; its output. */
    private String run(int expectedExit, String... command) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new java.util.ArrayList<>(List.of("--store", store(), "--notes", notes().toString()));
        args.addAll(List.of(command));
        int code = McpNotes.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(printed + err.toString(StandardCharsets.UTF_8)).isEqualTo(expectedExit);
        return printed;
    }

    @Test
    void theDemoReadsAtOnceWaitsForApprovalToWriteAndASecondJvmApproves() throws Exception {
        String printed = run(0, "demo");

        assertThat(printed).contains("COMPLETED at once, no approval needed")
                .contains("waits for approval of notes_write_note")
                .contains("plumber.txt: Call the plumber on Monday");
        assertThat(Files.readString(notes().resolve("plumber.txt"))).isEqualTo("Call the plumber on Monday");
    }

    @Test
    void aWriteWaitsInTheInboxUntilItIsApprovedAndDeclinedOnesAreNeverWritten() throws Exception {
        assertThat(run(0, "start", "Save a note called plumber: Call the plumber")).contains("waits for approval of notes_write_note");
        assertThat(run(0, "start", "Save a note called cat: Feed the cat")).contains("SUSPENDED");
        assertThat(notes().resolve("plumber.txt")).doesNotExist();

        String inbox = run(0, "list");
        assertThat(inbox).contains("notes_write_note").contains("plumber").contains("2 suspended runs");
        String plumberRun = runIdOf(inbox, "plumber");
        String catRun = runIdOf(inbox, "\"cat\"");

        run(0, "approve", plumberRun, "call_1_0");
        run(0, "decline", catRun, "call_1_0", "no", "cat");

        assertThat(Files.readString(notes().resolve("plumber.txt"))).isEqualTo("Call the plumber");
        assertThat(notes().resolve("cat.txt")).doesNotExist();
        assertThat(run(0, "list")).contains("(no suspended runs)");
    }

    @Test
    void theWebInboxListsTheWaitingWrite() throws Exception {
        run(0, "start", "Save a note called plumber: Call the plumber");
        String token = "notes-test-token-0123456789";
        try (McpNotes.Served served = McpNotes.over(store(), notes(), System.out).serve(0, token)) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> runs = http.send(HttpRequest.newBuilder(URI.create(served.server().uri() + "agents/notes/suspended-runs"))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(runs.statusCode()).isEqualTo(200);
            assertThat(runs.body()).contains("\"toolName\":\"notes_write_note\"").contains("\"requiresApproval\":true")
                    .contains("Call the plumber");
        }
    }

    /** The run id on the inbox line that contains {@code marker}. */
    private static String runIdOf(String inbox, String marker) {
        return inbox.lines().filter(l -> l.contains(marker) && l.contains("notes_write_note")).findFirst()
                .map(l -> l.trim().split("\\s+")[0]).orElseThrow(() -> new AssertionError("no line with " + marker + " in\n" + inbox));
    }
}
