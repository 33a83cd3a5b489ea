package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.model.DeterministicModel;
import dev.baton.store.RunSnapshot;
import dev.baton.testing.TestStore;
import dev.baton.tool.InvalidToolInputException;
import dev.baton.tool.Tool;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A tool that waits for data may declare what it waits for ({@code resumeSchema}): data that breaks it
 * is refused before anything changes, naming the field; the call still waits, the tool has not run
 * again, and right data then goes on as usual. A tool without one takes any data.
 */
class ResumeSchemaTest {
    private final TestStore store = new TestStore();
    private final AtomicInteger resumedRuns = new AtomicInteger();

    private Tool askPassport(boolean withSchema) {
        var b = Tool.builder("askPassportNumber");
        if (withSchema) {
            b.resumeSchema("{\"type\":\"object\",\"required\":[\"passportNumber\"],"
                    + "\"properties\":{\"passportNumber\":{\"type\":\"string\",\"minLength\":4}}}");
        }
        return b.execute((input, ctx) -> {
            if (ctx.resumeData() == null) return ctx.suspend(Map.of("question", "What is your passport number?"));
            resumedRuns.incrementAndGet();
            return Map.of("onFile", ctx.resumeData().path("passportNumber").asText("none"));
        }).build();
    }

    private Agent agent(boolean withSchema) {
        DeterministicModel model = DeterministicModel.builder().whenUserSays("passport", "askPassportNumber", Map.of()).build();
        return Agent.builder("desk").model(model).tools(askPassport(withSchema)).store(store).build();
    }

    @Test
    void dataThatBreaksTheResumeSchemaIsRefusedBeforeAnythingChangesAndTheCallStillWaits() {
        Agent agent = agent(true);
        String runId = agent.generate("my passport").runId();
        RunSnapshot before = store.find(runId).orElseThrow();
        String call = agent.listSuspendedRuns().runs().get(0).toolCalls().get(0).toolCallId();

        assertThatThrownBy(() -> agent.resumeStream(Map.of("answer", "X1234567"), ResumeOptions.of(runId, call)).result())
                .isInstanceOfSatisfying(InvalidToolInputException.class, e -> {
                    assertThat(e.toolName()).isEqualTo("askPassportNumber");
                    assertThat(e.problems()).containsExactly("field 'passportNumber' is required");
                })
                .hasMessage("Invalid resume data for askPassportNumber: field 'passportNumber' is required");
        assertThatThrownBy(() -> agent.resumeStream(Map.of("passportNumber", "12"), ResumeOptions.of(runId, call)).result())
                .isInstanceOf(InvalidToolInputException.class).hasMessageContaining("passportNumber");

        assertThat(store.find(runId)).as("nothing changed").contains(before);
        assertThat(resumedRuns).as("the tool did not run on refused data").hasValue(0);
        assertThat(agent.tools().get("askPassportNumber").resumeSchema()).get()
                .satisfies(s -> assertThat(s.path("required").get(0).asText()).isEqualTo("passportNumber"));

        AgentResult done = agent.resumeStream(Map.of("passportNumber", "X1234567"), ResumeOptions.of(runId, call)).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(resumedRuns).hasValue(1);
    }

    @Test
    void aToolWithoutAResumeSchemaTakesAnyData() {
        Agent agent = agent(false);
        String runId = agent.generate("my passport").runId();
        String call = agent.listSuspendedRuns().runs().get(0).toolCalls().get(0).toolCallId();
        assertThat(agent.tools().get("askPassportNumber").resumeSchema()).isEmpty();

        AgentResult done = agent.resumeStream(Map.of("answer", "anything"), ResumeOptions.of(runId, call)).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(resumedRuns).hasValue(1);
    }
}
