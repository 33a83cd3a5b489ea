package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ModelException;
import dev.baton.RunInterruptedException;
import dev.baton.model.DeterministicModel;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ToolCall;
import dev.baton.testing.TestStore;
import dev.baton.tool.Tool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A model failure: its events name the step that failed (issue 28), and the result hands it over directly. */
class ModelFailureTest {
    private final TestStore store = new TestStore();
    private final AtomicBoolean modelDown = new AtomicBoolean();

    private Agent agent() {
        DeterministicModel model = DeterministicModel.scripted(request -> {
            if (request.lastMessage() instanceof Message.User) {
                return List.of(new ModelChunk.ToolCallRequest(new ToolCall("c1", "bookFlight", null)));
            }
            if (modelDown.get()) throw new UncheckedIOException(new IOException("provider timed out"));
            return List.of(new ModelChunk.TextDelta("Booked."));
        });
        return Agent.builder("travel").model(model).store(store)
                .tools(Tool.builder("bookFlight").requireApproval(true).execute((in, ctx) -> "ok").build()).build();
    }

    @Test
    void aModelFailureInStepTwoOfAResumedRunEndsStepTwoAndTheRunContinuesFromStepTwo() {
        Agent agent = agent();
        AgentResult first = agent.generate("Book a flight");
        modelDown.set(true);
        AgentResult failed = agent.approveToolCall(first.runId(), "c1").result();

        assertThat(failed.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(failed.eventTypes()).containsSubsequence("step-start", "error", "step-finish", "finish");
        assertThat(failed.events()).filteredOn(e -> e instanceof AgentEvent.StepStart).singleElement()
                .isEqualTo(new AgentEvent.StepStart(first.runId(), 2));
        assertThat(failed.events()).filteredOn(e -> e instanceof AgentEvent.StepFinish).last()
                .isEqualTo(new AgentEvent.StepFinish(first.runId(), 2, FinishReason.INTERRUPTED));
        assertThat(failed.events()).last().isEqualTo(new AgentEvent.Finish(first.runId(), FinishReason.INTERRUPTED, ""));
        assertThat(failed.error()).isInstanceOf(RunInterruptedException.class);

        ModelException model = failed.modelFailure().orElseThrow();
        assertThat(model.step()).isEqualTo(2);
        assertThat(model.runId()).isEqualTo(first.runId());
        assertThat(model.retryable()).as("an I/O failure may pass").isTrue();
        assertThat(model).hasMessageContaining("step 2").hasMessageContaining("provider timed out");

        modelDown.set(false);
        AgentResult continued = agent.continueRun(first.runId()).result();
        assertThat(continued.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(continued.events()).filteredOn(e -> e instanceof AgentEvent.StepStart).singleElement()
                .isEqualTo(new AgentEvent.StepStart(first.runId(), 2));
        assertThat(continued.modelFailure()).isEmpty();
    }

    @Test
    void aModelFailureOfANewRunFailsItInStepOneAndSaysWhetherARetryMayHelp() {
        Agent agent = Agent.builder("echo").store(store).model(request -> {
            throw new ModelException("401 from the provider: bad key", null, false);
        }).build();
        AgentResult failed = agent.generate("hi");
        assertThat(failed.outcome()).isEqualTo(RunOutcome.FAILED);
        assertThat(failed.events()).filteredOn(e -> e instanceof AgentEvent.StepFinish).singleElement()
                .isEqualTo(new AgentEvent.StepFinish(failed.runId(), 1, FinishReason.ERROR));
        ModelException e = failed.modelFailure().orElseThrow();
        assertThat(e.retryable()).as("the adapter said no").isFalse();
        assertThat(e.step()).isEqualTo(1);
        assertThat(e.getCause()).isInstanceOf(ModelException.class);
    }

    @Test
    void finishReasonsKeepTheReferenceWireNames() {
        assertThat(List.of(FinishReason.values())).extracting(FinishReason::wireName)
                .containsExactly("stop", "tool-calls", "max-steps", "error", "interrupted", "cancelled");
        assertThat(FinishReason.fromWireName("max-steps")).isEqualTo(FinishReason.MAX_STEPS);
        assertThat(List.of(RunAction.values())).extracting(RunAction::wireName)
                .containsExactly("start", "approve", "decline", "resume", "continue", "cancel", "discard", "expire");
    }
}
