package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.baton.BatonException;
import dev.baton.ConflictException;
import dev.baton.InvalidOptionException;
import dev.baton.InvalidRequestException;
import dev.baton.LeaseLostException;
import dev.baton.ModelException;
import dev.baton.NotFoundException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.StorageException;
import dev.baton.ThreadAlreadyExistsException;
import dev.baton.ThreadNotFoundException;
import dev.baton.ThreadOwnershipException;
import dev.baton.ToolCallNotFoundException;
import dev.baton.TransientException;
import dev.baton.UnknownToolException;
import dev.baton.model.DeterministicModel;
import dev.baton.testing.TestStore;
import dev.baton.tool.InvalidToolInputException;
import dev.baton.tool.Tool;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Exceptions are caught by category and carry the ids they are about. */
class ExceptionCategoriesTest {
    private final TestStore store = new TestStore();

    private Agent agent(Tool... tools) {
        return Agent.builder("travel").store(store).tools(tools)
                .model(DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "SFO"))
                        .whenUserSays("city", "askCity", Map.of()).build()).build();
    }

    private static Tool bookFlight() {
        return Tool.builder("bookFlight").requireApproval(true).execute((in, ctx) -> "ok").build();
    }

    @Test
    void eachExceptionIsInItsCategory() {
        assertThat(NotFoundException.class).isAssignableFrom(RunNotFoundException.class)
                .isAssignableFrom(ToolCallNotFoundException.class).isAssignableFrom(ThreadNotFoundException.class);
        assertThat(ConflictException.class).isAssignableFrom(RunNotSuspendedException.class)
                .isAssignableFrom(LeaseLostException.class).isAssignableFrom(ThreadAlreadyExistsException.class)
                .isAssignableFrom(ThreadOwnershipException.class);
        assertThat(InvalidRequestException.class).isAssignableFrom(ResumeMismatchException.class)
                .isAssignableFrom(UnknownToolException.class).isAssignableFrom(InvalidToolInputException.class);
        assertThat(TransientException.class).isAssignableFrom(StorageException.class).isAssignableFrom(ModelException.class);
        for (Class<?> category : new Class<?>[] {NotFoundException.class, ConflictException.class,
                InvalidRequestException.class, TransientException.class}) {
            assertThat(BatonException.class).isAssignableFrom(category);
        }
        assertThat(IllegalArgumentException.class).isAssignableFrom(InvalidOptionException.class);
        assertThat(BatonException.class.isAssignableFrom(InvalidOptionException.class)).isFalse();
    }

    @Test
    void notFoundExceptionsNameTheAgentRunAndCall() {
        Agent agent = agent(bookFlight());
        RunNotFoundException run = catchThrowableOfType(RunNotFoundException.class, () -> agent.approveToolCall("nope", "c"));
        assertThat(run.runId()).isEqualTo("nope");
        assertThat(run.agentId()).isEqualTo("travel");
        AgentResult suspended = agent.generate("flight");
        ToolCallNotFoundException call = catchThrowableOfType(ToolCallNotFoundException.class,
                () -> agent.approveToolCall(suspended.runId(), "other"));
        assertThat(call.runId()).isEqualTo(suspended.runId());
        assertThat(call.toolCallId()).isEqualTo("other");
        assertThat(call.waitingToolCallIds()).containsExactly(suspended.waitingCalls().get(0).toolCallId());
    }

    @Test
    void conflictsAndInvalidRequestsNameTheirRunCallAndTool() {
        Agent agent = agent(bookFlight());
        AgentResult suspended = agent.generate("flight");
        String callId = suspended.waitingCalls().get(0).toolCallId();
        ResumeMismatchException mismatch = catchThrowableOfType(ResumeMismatchException.class,
                () -> agent.resumeStream(Map.of(), ResumeOptions.of(suspended.runId(), callId)));
        assertThat(mismatch.runId()).isEqualTo(suspended.runId());
        assertThat(mismatch.toolCallId()).isEqualTo(callId);

        Agent without = Agent.builder("travel").store(store).model(DeterministicModel.builder().build()).build();
        UnknownToolException unknown = catchThrowableOfType(UnknownToolException.class,
                () -> without.approveToolCall(suspended.runId(), callId));
        assertThat(unknown.toolName()).isEqualTo("bookFlight");
        assertThat(unknown.runId()).isEqualTo(suspended.runId());
        assertThat(unknown.agentId()).isEqualTo("travel");

        AgentStream winner = agent.approveToolCall(suspended.runId(), callId);
        RunNotSuspendedException lost = catchThrowableOfType(RunNotSuspendedException.class,
                () -> agent.declineToolCall(suspended.runId(), callId));
        assertThat(lost.runId()).isEqualTo(suspended.runId());
        winner.close();
    }

    @Test
    void aModelExceptionSaysWhetherARetryMayHelp() {
        assertThat(new ModelException("x", new IOException("reset")).retryable()).isTrue();
        assertThat(new ModelException("x", new TimeoutException()).retryable()).isTrue();
        assertThat(new ModelException("x", new IllegalStateException("bad request")).retryable()).isFalse();
        assertThat(new ModelException("x", new ModelException("429", null, true)).retryable()).isTrue();
        assertThat(StorageException.failed("db", "insert", "r1", null, new IOException("x")).runId()).isEqualTo("r1");
    }
}
