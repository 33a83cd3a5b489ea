package dev.baton.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --model} and {@code --base-url}: the deterministic model stays the default, a missing key
 * is a clear usage error (one line and a hint, exit 2, no stack trace), the base URL works with or
 * without {@code /v1}, and with a key the example agents talk to the
 * provider at the base URL: here a stub on loopback, no network.
 */
class ModelChoiceTest {
    private static final UnaryOperator<String> NO_KEYS = name -> null;

    @TempDir
    Path dir;
    private ProviderStub stub;

    @BeforeEach
    void start() throws Exception {
        stub = new ProviderStub();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    private static UnaryOperator<String> env(String name, String value) {
        return n -> n.equals(name) ? value : null;
    }

    /** Runs the inbox in this JVM; returns exit code, stdout and stderr. */
    private Jvm.Result inbox(UnaryOperator<String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("--store", "jdbc:sqlite:" + dir.resolve("baton.db")));
        all.addAll(List.of(args));
        int code = InboxApp.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env);
        return new Jvm.Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Nested
    class Parsing {

        @Test
        void withoutModelTheDeterministicModelIsUsed() {
            assertThat(ModelChoice.parse(null, null, NO_KEYS).isDeterministic()).isTrue();
            assertThat(ModelChoice.parse("deterministic", null, NO_KEYS).isDeterministic()).isTrue();
        }

        @Test
        void aMissingKeyNamesTheVariableToSet() {
            assertThatThrownBy(() -> ModelChoice.parse("openai:gpt-4o-mini", null, NO_KEYS))
                    .isInstanceOf(UsageException.class)
                    .hasMessage("--model openai:gpt-4o-mini needs an API key: set the environment variable OPENAI_API_KEY"
                            + " (or leave out --model to use the deterministic model)");
            assertThatThrownBy(() -> ModelChoice.parse("anthropic:claude-sonnet-4-5", null, env("OPENAI_API_KEY", "test-key")))
                    .hasMessageContaining("set the environment variable ANTHROPIC_API_KEY");
        }

        @Test
        void ollamaNeedsNoKey() {
            ModelChoice choice = ModelChoice.parse("ollama:llama3.2", null, NO_KEYS);

            assertThat(choice.isDeterministic()).isFalse();
            assertThat(choice.spec()).isEqualTo("ollama:llama3.2");
        }

        @ParameterizedTest(name = "{0} {1} -> {2}")
        @CsvSource({
                "openai,    http://localhost:8000,            http://localhost:8000/v1",
                "openai,    http://localhost:8000/,           http://localhost:8000/v1",
                "openai,    http://localhost:8000/v1,         http://localhost:8000/v1",
                "openai,    http://localhost:8000/v1/,        http://localhost:8000/v1",
                "openai,    https://api.openai.com,           https://api.openai.com/v1",
                "openai,    https://gateway.example/openai/,  https://gateway.example/openai",
                "anthropic, https://api.anthropic.com,        https://api.anthropic.com/v1",
                "anthropic, https://api.anthropic.com/v1/,    https://api.anthropic.com/v1",
                "ollama,    http://localhost:11434,           http://localhost:11434/v1",
                "ollama,    http://localhost:11434/v1/,       http://localhost:11434/v1",
                "ollama,    http://proxy.example/ollama,      http://proxy.example/ollama/v1"})
        void theBaseUrlMayOmitV1AndATrailingSlash(String provider, String given, String used) {
            assertThat(ModelChoice.apiBase(provider, given)).isEqualTo(used);
        }

        @Test
        void malformedChoicesAreUsageErrors() {
            assertThatThrownBy(() -> ModelChoice.parse("gpt-4o", null, NO_KEYS)).hasMessageStartingWith("--model: expected PROVIDER:NAME");
            assertThatThrownBy(() -> ModelChoice.parse("gemini:pro", null, NO_KEYS))
                    .hasMessage("--model: unknown provider 'gemini'; known: openai, anthropic, ollama");
            assertThatThrownBy(() -> ModelChoice.parse("openai:", null, NO_KEYS)).hasMessageContaining("e.g. openai:gpt-4o-mini");
            assertThatThrownBy(() -> ModelChoice.parse(null, "http://localhost:11434", NO_KEYS)).hasMessageStartingWith("--base-url needs --model");
            assertThatThrownBy(() -> ModelChoice.parse("ollama:llama3.2", "localhost:11434", NO_KEYS))
                    .hasMessageStartingWith("--base-url: expected an http(s) URL");
        }
    }

    @Nested
    class OnTheCommandLine {

        @Test
        void noKeyGivesTheMessageAHintToHelpAndExitCode2() {
            Jvm.Result r = inbox(NO_KEYS, "start", "--model", "openai:gpt-4o-mini", "Book a flight to Lisbon");

            assertThat(r.exitCode()).as(r.all()).isEqualTo(2);
            assertThat(r.err().lines()).as(r.all()).containsExactly(
                    "error: --model openai:gpt-4o-mini needs an API key: set the environment variable OPENAI_API_KEY"
                            + " (or leave out --model to use the deterministic model)",
                    InboxArgumentsTest.HINT);
            assertThat(r.out()).isEmpty();
            assertThat(stub.received()).isEmpty();
        }

        @Test
        void theHelpExplainsThatBaseUrlWorksWithOrWithoutV1() {
            Jvm.Result r = inbox(NO_KEYS, "--help");

            assertThat(r.exitCode()).isZero();
            assertThat(r.out()).contains("--base-url URL").contains("with or without /v1");
        }

        @ParameterizedTest(name = "openai: --base-url ROOT{0}")
        @ValueSource(strings = {"", "/", "/v1", "/v1/", "//"})
        void openAiIsReachedUnderV1WhetherTheBaseUrlSaysV1OrNot(String suffix) {
            stub.then(ProviderStub.openAiText("Hello from a compatible server."));

            Jvm.Result r = inbox(env("OPENAI_API_KEY", "test-key"), "start", "--model", "openai:gpt-4o-mini",
                    "--base-url", stub.url(suffix), "Hello");

            assertThat(r.exitCode()).as(r.all()).isZero();
            assertThat(r.out()).contains("Hello from a compatible server.");
            assertThat(stub.received().get(0).path()).isEqualTo("/v1/chat/completions");
        }

        @Test
        void aBaseUrlWithItsOwnPathIsUsedAsGiven() {
            stub.then(ProviderStub.openAiText("Hello through a gateway."));

            Jvm.Result r = inbox(env("OPENAI_API_KEY", "test-key"), "start", "--model", "openai:gpt-4o-mini",
                    "--base-url", stub.url("/gateway/openai/"), "Hello");

            assertThat(r.exitCode()).as(r.all()).isZero();
            assertThat(stub.received().get(0).path()).isEqualTo("/gateway/openai/chat/completions");
        }

        @Test
        void anthropicIsReachedUnderV1FromTheServersRootToo() {
            stub.then(ProviderStub.anthropicText("Hello from Claude."));

            Jvm.Result r = inbox(env("ANTHROPIC_API_KEY", "test-key"), "start", "--model", "anthropic:claude-sonnet-4-5",
                    "--base-url", stub.url("/"), "Hello");

            assertThat(r.exitCode()).as(r.all()).isZero();
            assertThat(stub.received().get(0).path()).isEqualTo("/v1/messages");
        }

        @Test
        void theDemoKeepsItsDeterministicModel() {
            Jvm.Result r = inbox(NO_KEYS, "demo", "--model", "openai:gpt-4o-mini");

            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).startsWith("error: 'demo' has no option --model");
        }

        @Test
        void withAKeyTheAgentAsksTheProviderAndAnApprovalSendsItTheToolResult() {
            String baseUrl = stub.url("/v1");
            UnaryOperator<String> env = env("OPENAI_API_KEY", "test-key");
            stub.then(ProviderStub.openAiToolCall("call_1", "bookFlight", "{\"to\":\"Lisbon\"}"))
                    .then(ProviderStub.openAiText("Your flight to Lisbon is booked."));

            Jvm.Result started = inbox(env, "start", "--model", "openai:gpt-4o-mini", "--base-url", baseUrl,
                    "--resource", "alice", "--thread", "alice-lisbon", "Book a flight to Lisbon");

            assertThat(started.exitCode()).as(started.all()).isZero();
            assertThat(started.out()).contains("-> SUSPENDED run ").contains("bookFlight");
            ProviderStub.Received first = stub.received().get(0);
            assertThat(first.path()).isEqualTo("/v1/chat/completions");
            assertThat(first.authorization()).isEqualTo("Bearer test-key");
            assertThat(first.body().path("model").asText()).isEqualTo("gpt-4o-mini");
            assertThat(first.body().path("messages").get(1).path("content").asText()).isEqualTo("Book a flight to Lisbon");
            JsonNode bookFlight = first.body().path("tools").get(0).path("function");
            assertThat(bookFlight.path("name").asText()).isEqualTo("bookFlight");
            assertThat(bookFlight.path("parameters").path("required").toString()).isEqualTo("[\"to\"]");

            Matcher run = Pattern.compile("SUSPENDED run (\\S+),").matcher(started.out());
            assertThat(run.find()).as(started.out()).isTrue();
            Jvm.Result approved = inbox(env, "approve", run.group(1), "call_1", "--model", "openai:gpt-4o-mini", "--base-url", baseUrl);

            assertThat(approved.exitCode()).as(approved.all()).isZero();
            assertThat(approved.out()).contains("Your flight to Lisbon is booked.").contains("COMPLETED");
            JsonNode toolMessage = stub.received().get(1).body().path("messages").get(3);
            assertThat(toolMessage.path("role").asText()).isEqualTo("tool");
            assertThat(toolMessage.path("tool_call_id").asText()).isEqualTo("call_1");
            assertThat(toolMessage.path("content").asText()).contains("\"booked\":\"Lisbon\"");
        }

        @Test
        void ollamaIsReachedThroughItsOpenAiCompatibleEndpoint() {
            stub.then(ProviderStub.openAiText("Hello from llama."));

            Jvm.Result r = inbox(NO_KEYS, "start", "--model", "ollama:llama3.2", "--base-url", stub.url(""), "Hello");

            assertThat(r.exitCode()).as(r.all()).isZero();
            assertThat(r.out()).contains("COMPLETED at once").contains("Hello from llama.");
            assertThat(stub.received().get(0).path()).isEqualTo("/v1/chat/completions");
            assertThat(stub.received().get(0).body().path("model").asText()).isEqualTo("llama3.2");
        }

        @Test
        void anthropicIsAskedWithItsOwnKeyAndFormat() {
            stub.then(ProviderStub.anthropicText("Hello from Claude."));

            Jvm.Result r = inbox(env("ANTHROPIC_API_KEY", "test-key"), "start", "--model", "anthropic:claude-sonnet-4-5",
                    "--base-url", stub.url("/v1"), "Hello");

            assertThat(r.exitCode()).as(r.all()).isZero();
            assertThat(r.out()).contains("Hello from Claude.");
            assertThat(stub.received().get(0).path()).isEqualTo("/v1/messages");
            assertThat(stub.received().get(0).apiKey()).isEqualTo("test-key");
            assertThat(stub.received().get(0).body().path("model").asText()).isEqualTo("claude-sonnet-4-5");
        }

        @Test
        void aProviderFailureIsReportedWithItsStatusAndNoStackTrace() {
            // no answer scripted: the stub answers 500 with an error body
            Jvm.Result r = inbox(env("OPENAI_API_KEY", "test-key"), "start", "--model", "openai:gpt-4o-mini",
                    "--base-url", stub.url("/v1"), "Hello");

            assertThat(r.exitCode()).as(r.all()).isEqualTo(1);
            assertThat(r.out()).contains("-> FAILED: ").contains("answered HTTP 500").contains("stub: no answer scripted")
                    .doesNotContain("\tat ");
        }

        @Test
        void aRealProcessWithoutTheKeyExitsWith2AndPrintsNoStackTrace() throws Exception {
            Jvm.Result r = Jvm.inboxApp(dir, Map.of("OPENAI_API_KEY", ""), "--store", "jdbc:sqlite:" + dir.resolve("p.db"),
                    "start", "--model", "openai:gpt-4o-mini", "Hi");

            assertThat(r.exitCode()).as(r.all()).isEqualTo(2);
            assertThat(r.err()).startsWith("error: --model openai:gpt-4o-mini needs an API key").doesNotContain("\tat ");
        }
    }
}
