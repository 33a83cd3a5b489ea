package dev.baton.model.springai;

import static dev.baton.model.springai.Fixtures.INSTRUCTIONS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.model.ModelCallException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.ai.chat.model.ChatModel;

/**
 * What the wire tests of each provider share: a {@link RecordedProvider} per test, an agent with the
 * two fixture tools over the provider's model, the answers it reported, and the check of an HTTP error.
 */
abstract class RecordedWireTest {
    RecordedProvider provider;
    final AtomicInteger bookings = new AtomicInteger();
    final AtomicInteger lookups = new AtomicInteger();
    final List<AnswerMetadata> answers = new CopyOnWriteArrayList<>();

    /** The provider's Spring AI model, talking to {@code serverRoot}. */
    abstract ChatModel providerModel(String serverRoot);

    @BeforeEach
    void start() {
        provider = RecordedProvider.start();
    }

    @AfterEach
    void stop() {
        provider.close();
    }

    /** An agent with the fixture instructions and tools over the recorded provider, streaming or not. */
    Agent agent(boolean streaming) {
        SpringAiModel model = SpringAiModel.builder(providerModel(provider.url(""))).streaming(streaming).onAnswer(answers::add).build();
        return Agent.builder(Fixtures.uniqueAgentId()).instructions(INSTRUCTIONS).model(model)
                .tools(Fixtures.bookFlight(bookings), Fixtures.getWeather(lookups)).build();
    }

    /**
     * {@code result} failed on a model call that the provider answered with HTTP {@code status}: a
     * {@link ModelCallException} of kind HTTP_STATUS, retryable or not, whose message starts with
     * {@code message}. Returns that exception for further checks.
     */
    static ModelCallException assertFailedOnHttpStatus(AgentResult result, int status, boolean retryable, String message) {
        assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
        assertThat(result.modelFailure()).hasValueSatisfying(f -> {
            assertThat(f.retryable()).isEqualTo(retryable);
            assertThat(f.getCause()).isInstanceOfSatisfying(ModelCallException.class, e -> {
                assertThat(e.kind()).isEqualTo(ModelCallException.Kind.HTTP_STATUS);
                assertThat(e.statusCode()).hasValue(status);
                assertThat(e.getMessage()).startsWith(message);
            });
        });
        return (ModelCallException) result.modelFailure().orElseThrow().getCause();
    }
}
