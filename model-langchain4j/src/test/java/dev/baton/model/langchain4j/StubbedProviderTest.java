package dev.baton.model.langchain4j;

import static dev.baton.model.langchain4j.Fixtures.INSTRUCTIONS;

import dev.baton.agent.Agent;
import dev.baton.model.LanguageModel;
import dev.baton.store.SnapshotStore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the tests of a provider's LangChain4j model behind a {@link StubProvider} share: the stub and a
 * SQLite store per test, and an agent with the fixture instructions and tools over a model.
 */
abstract class StubbedProviderTest {
    StubProvider stub;
    SnapshotStore store;
    final AtomicInteger bookings = new AtomicInteger();

    @BeforeEach
    void start() {
        stub = StubProvider.start();
        store = Fixtures.sqlite();
    }

    @AfterEach
    void stop() {
        stub.close();
        store.close();
    }

    /** An agent {@code agentId} over {@code model}, with the fixture instructions and tools, on this test's store. */
    Agent agent(String agentId, LanguageModel model) {
        return Agent.builder(agentId).instructions(INSTRUCTIONS).model(model)
                .tools(Fixtures.bookFlight(bookings), Fixtures.getWeather()).store(store).build();
    }
}
