package dev.baton.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad arguments get one error line, a one-line hint to {@code --help} and exit code 2 (the usage
 * only when no command is given); never a stack trace.
 */
class InboxArgumentsTest {

    @TempDir
    Path dir;

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of(new String[] {"frobnicate"}, "error: unknown command 'frobnicate'"),
                Arguments.of(new String[] {"approve", "only-a-run"}, "error: 'approve' takes RUN and CALL (got 1 argument)"),
                Arguments.of(new String[] {"decline"}, "error: 'decline' takes RUN and CALL (got 0 arguments)"),
                Arguments.of(new String[] {"resume", "r1", "{not json"}, "error: JSON: not valid JSON"),
                Arguments.of(new String[] {"list", "--page", "two"}, "error: --page must be an integer, was 'two'"),
                Arguments.of(new String[] {"list", "--per-page", "0"}, "error: perPage: must be a positive integer, was 0"),
                Arguments.of(new String[] {"list", "--page", "-1"}, "error: page: must be a non-negative integer"),
                Arguments.of(new String[] {"list", "--from", "2026-06-05", "--to", "2026-06-01"}, "error: fromDate: must not be after toDate"),
                Arguments.of(new String[] {"list", "--from", "last tuesday"}, "error: --from: expected yyyy-MM-dd or an ISO date-time"),
                Arguments.of(new String[] {"list", "--thread"}, "error: --thread needs a value"),
                Arguments.of(new String[] {"list", "--reason", "x"}, "error: 'list' has no option --reason"),
                Arguments.of(new String[] {"list", "-v"}, "error: unknown option '-v'"),
                Arguments.of(new String[] {"list", "extra"}, "error: 'list' takes no arguments, only options"),
                Arguments.of(new String[] {"--agent", "nobody", "list"}, "error: --agent: unknown agent 'nobody'"),
                Arguments.of(new String[] {"--store", "ftp://nowhere", "list"}, "error: --store: No SnapshotStoreProvider accepts 'ftp://nowhere'"),
                Arguments.of(new String[] {"--store", "memory:", "demo"}, "error: --store: the demo needs a store that outlives the JVM"),
                Arguments.of(new String[] {"serve", "--jwks", "https://idp.example.com/jwks.json"}, "error: --jwks, --issuer and --audience go together"),
                Arguments.of(new String[] {"serve", "--jwks", "http://idp.example.com/jwks.json", "--issuer", "https://idp.example.com/",
                        "--audience", "baton"}, "error: --jwks/--issuer/--audience: must be https (or http on loopback)"),
                Arguments.of(new String[] {"serve", "--anonymous", "--host", "0.0.0.0"}, "error: --anonymous: only on a loopback --host"),
                Arguments.of(new String[] {"serve", "--anonymous", "--token", "abc"}, "error: --anonymous takes no --token"));
    }

    static final String HINT = "(java -jar baton-examples.jar --help prints the usage)";

    @ParameterizedTest
    @MethodSource("badCommandLines")
    void badArgumentsGetTheErrorAHintToHelpAndExitCode2(String[] args, String error) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = InboxApp.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String stderr = err.toString(StandardCharsets.UTF_8);

        assertThat(code).as(stderr).isEqualTo(2);
        assertThat(stderr.lines()).as(stderr).hasSize(2);
        assertThat(stderr.lines().toList().get(0)).startsWith(error);
        assertThat(stderr.lines().toList().get(1)).isEqualTo(HINT);
        assertThat(stderr).doesNotContain("usage:").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void noCommandGetsTheErrorAndTheUsageWithExitCode2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = InboxApp.run(new String[] {"--store", "memory:"}, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        String stderr = err.toString(StandardCharsets.UTF_8);

        assertThat(code).isEqualTo(2);
        assertThat(stderr).startsWith("error: no command given" + System.lineSeparator() + "usage: java -jar baton-examples.jar")
                .contains("approve [--args JSON] [--reason TEXT] RUN CALL").doesNotContain("\tat ");
    }

    @Test
    void aRealProcessExitsWith2AndPrintsTwoLinesWithoutAStackTrace() throws Exception {
        Jvm.Result r = Jvm.inboxApp(dir, "approve", "--reason");
        assertThat(r.exitCode()).as(r.all()).isEqualTo(2);
        assertThat(r.err().lines()).as(r.all()).containsExactly("error: --reason needs a value", HINT);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void anUnknownRunIsAFailureNotAUsageError() throws Exception {
        Jvm.Result r = Jvm.inboxApp(dir, "approve", "no-such-run", "call_1_0");
        assertThat(r.exitCode()).as(r.all()).isEqualTo(1);
        assertThat(r.err()).startsWith("error: No snapshot found for run 'no-such-run' of agent 'concierge'")
                .doesNotContain("usage:").doesNotContain("\tat ");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"serve", "list", "approve", "demo"})
    void aCommandsHelpPrintsTheUsageAndExits0(String command) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = InboxApp.run(new String[] {command, "--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("usage: ").contains("serve", "--anonymous");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void helpPrintsTheUsageAndExits0() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = InboxApp.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("usage: ").contains("approve [--args JSON] [--reason TEXT] RUN CALL", "--per-page");
    }
}
