package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ConflictException;
import dev.baton.InvalidRequestException;
import dev.baton.LeaseLostException;
import dev.baton.ModelException;
import dev.baton.NotFoundException;
import dev.baton.ResumeMismatchException;
import dev.baton.ThreadAlreadyExistsException;
import dev.baton.ThreadNotFoundException;
import dev.baton.ToolCallNotFoundException;
import dev.baton.UnknownToolException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How core's exceptions become problems: each known one by its own type with the ids it carries, and
 * one the API does not know by name by its category. Every document is valid against openapi.json's
 * {@code Problem} schema.
 */
class ProblemTest {

    private static Problem mapped(Throwable e) {
        Problem p = Problem.from(e);
        OpenApiDocument doc = OpenApiDocument.get();
        doc.assertValid(doc.component("Problem"), Json.text(p.toJson()), e.getClass().getSimpleName());
        return p;
    }

    @Test
    void aMissingToolCallIs404NamingTheRunAndTheCall() {
        Problem p = mapped(new ToolCallNotFoundException("run-1", "call_9", List.of("call_1_0")));
        assertThat(p.status()).isEqualTo(404);
        assertThat(p.type()).isEqualTo("urn:baton:problem:tool-call-not-found");
        assertThat(p.extensions()).containsEntry("runId", "run-1").containsEntry("toolCallId", "call_9");
    }

    @Test
    void aBadEditIs400NamingEachFieldAndItsRule() {
        Problem p = mapped(new dev.baton.tool.InvalidToolInputException("refund",
                List.of("field 'amount' must be an integer, got \"a lot\"", "field 'order' is required", "the input must be an object")));
        assertThat(p.status()).isEqualTo(400);
        assertThat(p.type()).isEqualTo("urn:baton:problem:invalid-tool-input");
        assertThat(p.extensions()).containsEntry("option", "args").containsEntry("toolName", "refund");
        assertThat(Json.text(p.toJson())).contains("{\"field\":\"amount\",\"rule\":\"must be an integer, got \\\"a lot\\\"\"}",
                "{\"field\":\"order\",\"rule\":\"is required\"}", "{\"field\":null,\"rule\":\"the input must be an object\"}");
        assertThat(p.detail()).endsWith("Nothing was changed.");
    }

    @Test
    void aStaleDigestIs409WithBothDigests() {
        Problem p = mapped(new dev.baton.DecisionConflictException("run-1", "call_1_0", "a".repeat(64), "b".repeat(64)));
        assertThat(p.status()).isEqualTo(409);
        assertThat(p.type()).isEqualTo("urn:baton:problem:decision-conflict");
        assertThat(p.extensions()).containsEntry("runId", "run-1").containsEntry("toolCallId", "call_1_0")
                .containsEntry("digest", "a".repeat(64)).containsEntry("currentDigest", "b".repeat(64));
    }

    @Test
    void anAlreadyDecidedCallIs409SayingByWhomWhenAndWhatToDo() {
        Problem p = mapped(new dev.baton.AlreadyDecidedException("run-1", "call-charge", "approve", "maria",
                java.time.Instant.parse("2026-06-01T09:30:00Z"), "the run is listed as interrupted: continueRun('run-1') goes on"));
        assertThat(p.status()).isEqualTo(409);
        assertThat(p.type()).as("not run-not-suspended, its superclass").isEqualTo("urn:baton:problem:already-decided");
        assertThat(p.extensions()).containsEntry("runId", "run-1").containsEntry("toolCallId", "call-charge")
                .containsEntry("decision", "approve").containsEntry("actor", "maria").containsEntry("decidedAt", "2026-06-01T09:30:00Z")
                .containsEntry("next", "the run is listed as interrupted: continueRun('run-1') goes on");
        Problem unrecorded = mapped(new dev.baton.AlreadyDecidedException("run-1", null, "cancel", null, null, "nothing to do"));
        assertThat(unrecorded.extensions()).doesNotContainKeys("toolCallId", "actor", "decidedAt").containsEntry("decision", "cancel");
    }

    @Test
    void aMissingThreadIs404NamingTheThread() {
        Problem p = mapped(new ThreadNotFoundException("trip-7"));
        assertThat(p.status()).isEqualTo(404);
        assertThat(p.type()).isEqualTo("urn:baton:problem:thread-not-found");
        assertThat(p.extensions()).containsEntry("threadId", "trip-7");
    }

    @Test
    void aThreadThatExistsAlreadyIs409NamingTheThread() {
        Problem p = mapped(new ThreadAlreadyExistsException("trip-7"));
        assertThat(p.status()).isEqualTo(409);
        assertThat(p.type()).isEqualTo("urn:baton:problem:thread-exists");
        assertThat(p.extensions()).containsEntry("threadId", "trip-7");
    }

    @Test
    void aLostLeaseIs409NamingTheRun() {
        Problem p = mapped(new LeaseLostException("run-1"));
        assertThat(p.status()).isEqualTo(409);
        assertThat(p.type()).isEqualTo("urn:baton:problem:lease-lost");
        assertThat(p.extensions()).containsEntry("runId", "run-1");
    }

    @Test
    void aResumeMismatchIs422NamingTheRunAndTheCallWhenOneIsNamed() {
        Problem withCall = mapped(new ResumeMismatchException("run-1", "call_1_0", "call_1_0 waits for approval"));
        assertThat(withCall.status()).isEqualTo(422);
        assertThat(withCall.extensions()).containsEntry("runId", "run-1").containsEntry("toolCallId", "call_1_0");
        Problem withoutCall = mapped(new ResumeMismatchException("run-1", null, "the run waits for nobody"));
        assertThat(withoutCall.extensions()).containsEntry("runId", "run-1").doesNotContainKey("toolCallId");
    }

    @Test
    void anUnknownToolIs500NamingTheRunAndTheTool() {
        Problem p = mapped(new UnknownToolException("concierge", "run-1", "bookFlight"));
        assertThat(p.status()).isEqualTo(500);
        assertThat(p.type()).isEqualTo("urn:baton:problem:unknown-tool");
        assertThat(p.extensions()).containsEntry("runId", "run-1").containsEntry("toolName", "bookFlight");
    }

    // ---- exceptions a later release may add: answered by their category -------------------------

    static final class LaterNotFound extends NotFoundException {
        private static final long serialVersionUID = 1L;

        LaterNotFound() {
            super("No bucket 'b-1'.", null);
        }
    }

    static final class LaterConflict extends ConflictException {
        private static final long serialVersionUID = 1L;

        LaterConflict() {
            super("The bucket 'b-1' changed meanwhile.", null);
        }
    }

    static final class LaterInvalidRequest extends InvalidRequestException {
        private static final long serialVersionUID = 1L;

        LaterInvalidRequest() {
            super("A bucket name may not be empty.", null);
        }
    }

    @Test
    void anExceptionTheApiDoesNotKnowByNameIsAnsweredByItsCategory() {
        Problem notFound = mapped(new LaterNotFound());
        assertThat(notFound.status()).isEqualTo(404);
        assertThat(notFound.type()).isEqualTo("urn:baton:problem:not-found");
        assertThat(notFound.detail()).isEqualTo("No bucket 'b-1'.");
        Problem conflict = mapped(new LaterConflict());
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.type()).isEqualTo("urn:baton:problem:conflict");
        Problem invalid = mapped(new LaterInvalidRequest());
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.type()).isEqualTo("urn:baton:problem:invalid-request");
    }

    @Test
    void aTransientFailureIs503WithRetryAfterAndKeepsItsMessageInTheLog() {
        Problem p = mapped(new ModelException("provider at https://secret-host/v1 answered 503", null, true));
        assertThat(p.status()).isEqualTo(503);
        assertThat(p.type()).isEqualTo("urn:baton:problem:unavailable");
        assertThat(p.headers()).containsEntry("Retry-After", "5");
        assertThat(p.extensions()).containsKey("incident");
        assertThat(p.detail()).doesNotContain("secret-host");
    }
}
