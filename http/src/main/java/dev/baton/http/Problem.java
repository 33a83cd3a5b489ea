package dev.baton.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.BatonException;
import dev.baton.ConflictException;
import dev.baton.DecisionConflictException;
import dev.baton.InvalidOptionException;
import dev.baton.InvalidRequestException;
import dev.baton.LeaseLostException;
import dev.baton.ModelException;
import dev.baton.NotAnApproverException;
import dev.baton.NotFoundException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunInterruptedException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.SnapshotFormatException;
import dev.baton.StorageException;
import dev.baton.ThreadAlreadyExistsException;
import dev.baton.ThreadNotFoundException;
import dev.baton.ThreadOwnershipException;
import dev.baton.ToolCallNotFoundException;
import dev.baton.TransientException;
import dev.baton.UnknownToolException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An RFC 9457 problem: {@code type}, {@code title}, {@code status}, {@code detail}, plus extension
 * members (e.g. {@code option}). Never carries a stack trace; what is logged stays on the server.
 * The one place errors become answers: {@link #from} maps every exception of a handler, of core
 * and of the stores; {@link #toJson} is the document, in a response ({@link ApiResponse#problem}) or
 * as the closing event of a stream that failed part-way.
 *
 * @param status     the HTTP status
 * @param slug       the last part of {@code type}: {@code urn:baton:problem:<slug>}
 * @param title      short, the same for every occurrence of this kind
 * @param detail     this occurrence
 * @param extensions extension members, in order
 * @param headers    response headers that go with it ({@code WWW-Authenticate}, {@code Allow}, ...)
 */
record Problem(int status, String slug, String title, String detail, Map<String, Object> extensions,
               Map<String, String> headers) {
    private static final Logger LOG = LoggerFactory.getLogger(BatonHttpApi.class);
    static final String TYPE_PREFIX = "urn:baton:problem:";

    Problem {
        // in the order given, as documented (Map.copyOf orders them differently in each JVM)
        extensions = Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    static Problem of(int status, String slug, String title, String detail) {
        return new Problem(status, slug, title, detail, Map.of(), Map.of());
    }

    Problem with(String member, Object value) {
        Map<String, Object> e = new LinkedHashMap<>(extensions);
        e.put(member, value);
        return new Problem(status, slug, title, detail, e, headers);
    }

    /** This problem with {@code member}, unless {@code value} is null. */
    Problem withPresent(String member, @Nullable Object value) {
        return value == null ? this : with(member, value);
    }

    Problem withHeader(String name, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(name, value);
        return new Problem(status, slug, title, detail, extensions, h);
    }

    String type() {
        return TYPE_PREFIX + slug;
    }

    /** The problem document: the four members, then the extensions in order. */
    ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("type", type());
        n.put("title", title);
        n.put("status", status);
        n.put("detail", detail);
        for (Map.Entry<String, Object> e : extensions.entrySet()) n.set(e.getKey(), Json.MAPPER.valueToTree(e.getValue()));
        return n;
    }

    /** Thrown inside the API to answer with a problem. */
    static final class Raised extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Problem problem;

        Raised(Problem problem) {
            super(problem.detail(), null, false, false);
            this.problem = problem;
        }

        Problem problem() {
            return problem;
        }
    }

    Raised raise() {
        return new Raised(this);
    }

    // ---- the ones the API raises itself -------------------------------------------------------

    static Problem invalidOption(String option, String detail) {
        return of(400, "invalid-option", "Invalid option", option + ": " + detail).with("option", option);
    }

    static Problem agentNotFound(String agentId) {
        return of(404, "agent-not-found", "Agent not found",
                "No agent '" + agentId + "' is served here. GET agents lists the agents.").with("agentId", agentId);
    }

    static Problem notFound(String method, String path) {
        String where = (method.isEmpty() ? "" : method + " ") + (path.isEmpty() ? "this path" : path);
        return of(404, "not-found", "Not found", "No resource at " + where + ". GET openapi.json lists the endpoints.");
    }

    /** What a container answers itself (a bad escape, an over-long URI or header), as a problem. */
    static Problem container(int status) {
        return switch (status) {
            case 400 -> of(400, "bad-request", "Bad request", "The request is malformed (its URI, e.g. a bad percent-escape, or its headers).");
            case 404 -> notFound("", "");
            case 405 -> of(405, "method-not-allowed", "Method not allowed", "This method is not allowed here.");
            case 408 -> of(408, "request-timeout", "Request timeout", "The request did not arrive within the time limit.");
            case 413 -> of(413, "body-too-large", "Request body too large", "The body is larger than the limit.");
            case 414 -> of(414, "uri-too-long", "URI too long", "The request's URI is longer than the server accepts.");
            case 426 -> of(426, "upgrade-required", "Upgrade required",
                    "HTTP/2 in clear text begins with its connection preface, or with an HTTP/1.1 request asking to Upgrade: h2c.");
            case 431 -> of(431, "headers-too-large", "Request headers too large", "The request's headers are larger than the server accepts.");
            case 501 -> of(501, "not-implemented", "Not implemented", "The server does not support this method or feature.");
            case 505 -> of(505, "http-version-not-supported", "HTTP version not supported", "Use HTTP/1.1 or HTTP/2.");
            default -> status >= 500 ? of(status, "internal-error", "Internal error", "The server failed to answer.")
                    : of(status, "bad-request", "Bad request", "The request was refused (" + status + ").");
        };
    }

    // ---- exceptions from core and the stores ------------------------------------------------

    /**
     * The problem for an exception thrown before a response started. Logs what the client does not see.
     * Each known exception has its own type; an exception of core added later falls back to its
     * category ({@code NotFoundException} 404, {@code ConflictException} 409, {@code InvalidRequestException}
     * 400, {@code TransientException} 503), so it maps sensibly before this class learns its name.
     */
    static Problem from(Throwable e) {
        if (e instanceof Raised r) return r.problem();
        if (e instanceof InvalidOptionException io) {
            return of(400, "invalid-option", "Invalid option", io.getMessage()).with("option", io.option());
        }
        if (e instanceof IllegalArgumentException) {
            return of(400, "invalid-request", "Invalid request", String.valueOf(e.getMessage()));
        }
        Problem special = DecisionProblems.of(e);   // before RunNotSuspendedException: already-decided is one
        if (special == null) special = specific(e);
        if (special != null) return special;
        for (Known<?> k : KNOWN) {
            Problem p = k.of(e);
            if (p != null) return p;
        }
        String incident = incident();
        if (e instanceof BatonException) {
            LOG.error("incident {}: {}", incident, e.getMessage(), e);
            return of(500, "baton-error", "Baton error", e.getMessage() + " (incident " + incident + ")").with("incident", incident);
        }
        LOG.error("incident {}: unexpected failure", incident, e);
        return of(500, "internal-error", "Internal error",
                "The server failed unexpectedly; the log has the details (incident " + incident + ").").with("incident", incident);
    }

    /**
     * A problem for an exception known by its type: its status, slug and title, the exception's message as
     * the detail, then the members {@code members} adds (the ids the exception carries).
     */
    private record Known<E extends Throwable>(Class<E> type, int status, String slug, String title,
                                               BiFunction<E, Problem, Problem> members) {
        @Nullable Problem of(Throwable e) {
            return type.isInstance(e) ? members.apply(type.cast(e), Problem.of(status, slug, title, e.getMessage())) : null;
        }
    }

    /**
     * The exceptions known by type, tried in order after the special ones ({@link #specific}, {@link DecisionProblems}):
     * core's own types first, then its categories, so that an exception of core added later maps by its category.
     */
    private static final List<Known<?>> KNOWN = List.of(
            new Known<>(RunNotFoundException.class, 404, "run-not-found", "Run not found", (e, p) -> p.with("runId", e.runId())),
            new Known<>(ToolCallNotFoundException.class, 404, "tool-call-not-found", "Tool call not found",
                    (e, p) -> p.with("runId", e.runId()).with("toolCallId", e.toolCallId())),
            new Known<>(ThreadNotFoundException.class, 404, "thread-not-found", "Thread not found",
                    (e, p) -> p.with("threadId", e.threadId())),
            new Known<>(DecisionConflictException.class, 409, "decision-conflict", "Decision conflict",
                    (e, p) -> p.with("runId", e.runId()).with("toolCallId", e.toolCallId())
                            .with("digest", e.expectedDigest()).with("currentDigest", e.actualDigest())),
            // the agent's approver rules refuse this person: nothing changed, nothing was recorded
            new Known<>(NotAnApproverException.class, 403, "not-an-approver", "Not an approver",
                    (e, p) -> p.with("runId", e.runId()).with("toolCallId", e.toolCallId())
                            .with("rule", e.rule()).with("decision", e.decision())),
            new Known<>(RunNotSuspendedException.class, 409, "run-not-suspended", "Run not suspended",
                    (e, p) -> p.with("runId", e.runId())),
            new Known<>(LeaseLostException.class, 409, "lease-lost", "Lease lost", (e, p) -> p.with("runId", e.runId())),
            new Known<>(ThreadAlreadyExistsException.class, 409, "thread-exists", "Thread exists",
                    (e, p) -> p.with("threadId", e.threadId())),
            new Known<>(ResumeMismatchException.class, 422, "resume-mismatch", "Resume mismatch",
                    (e, p) -> p.with("runId", e.runId()).withPresent("toolCallId", e.toolCallId())),
            new Known<>(NotFoundException.class, 404, "not-found", "Not found", (e, p) -> p),
            new Known<>(ConflictException.class, 409, "conflict", "Conflict", (e, p) -> p),
            new Known<>(InvalidRequestException.class, 400, "invalid-request", "Invalid request", (e, p) -> p));

    /** The problem of an exception that needs more than its message and ids (a detail of its own, a log line), or null. */
    private static @Nullable Problem specific(Throwable e) {
        if (e instanceof ThreadOwnershipException to) {
            // thread ids are scoped by resource (rule M6), so only a run without a resource, which only an
            // unrestricted principal starts, can meet a thread stored before 0.1.0 for a resource under its
            // bare id; core's message names the owning resource: not for a caller who may not see it
            return of(409, "thread-owned-elsewhere", "Thread of another resource",
                    "Thread '" + to.threadId() + "' belongs to another resource: a run may use only a thread of its own "
                            + "resource. Nothing was stored.").with("option", "threadId");
        }
        if (e instanceof ResourceMerge.ListingChangedException lc) {
            return of(503, "listing-changed", "Listing changed while read",
                    "Runs of your resources were created or ended while this page was read, "
                            + lc.attempts() + " times in a row. Try again.")
                    .withHeader("Retry-After", "1");
        }
        if (e instanceof UnknownToolException ut) {
            LOG.error("{}", e.getMessage());
            return of(500, "unknown-tool", "Agent lacks the run's tool", e.getMessage())
                    .with("runId", ut.runId()).with("toolName", ut.toolName());
        }
        if (e instanceof SnapshotFormatException sf) {
            LOG.error("{}", e.getMessage(), e);
            return of(500, "unreadable-snapshot", "Unreadable run snapshot", sf.getMessage()).with("runId", sf.runId());
        }
        if (e instanceof TransientException) {
            // what failed (the store's driver, another service) may name hosts, users, statements or credentials:
            // its message stays in the log, under the incident the client is told
            String incident = incident();
            boolean store = e instanceof StorageException;
            LOG.warn("incident {}: {}: {}", incident, store ? "the store failed" : "a transient failure", e.getMessage(), e);
            String detail = (store ? "The run store did not answer." : "A service the API depends on failed.")
                    + " Try again later (incident " + incident + ").";
            return (store ? of(503, "store-unavailable", "Store unavailable", detail) : of(503, "unavailable", "Temporarily unavailable", detail))
                    .with("incident", incident).withHeader("Retry-After", "5");
        }
        return null;
    }

    /**
     * What a client may read of the failure that stopped a run (a {@code FAILED} or {@code INTERRUPTED}
     * outcome's {@code error}, a stream's {@code error} event), in every channel the same: Baton's own
     * message, unless the failure came from the store, a service the run depends on, or an unexpected
     * exception, whose messages may name hosts, users, databases or statements. Those become their
     * category and an incident id, and the details go to the server log once per failure (the stream's
     * error event and its outcome name the same incident).
     *
     * @param e the failure (an interrupted run's {@link RunInterruptedException} names its cause)
     * @return the text a client reads
     */
    static String runError(Throwable e) {
        Throwable t = e;
        while (t instanceof RunInterruptedException && t.getCause() != null) t = t.getCause();
        String category = t instanceof StorageException ? "the run store failed"
                : t instanceof ModelException || (t instanceof BatonException && !(t instanceof TransientException)) ? null
                : t instanceof TransientException ? "a service the run depends on failed"
                : "the server failed unexpectedly";
        if (category == null) return String.valueOf(e.getMessage());
        String incident;
        synchronized (RUN_INCIDENTS) {
            incident = RUN_INCIDENTS.get(e);
            if (incident == null) {
                incident = incident();
                RUN_INCIDENTS.put(e, incident);
                LOG.warn("incident {}: a run stopped: {}", incident, e.getMessage(), e);
            }
        }
        return (e instanceof RunInterruptedException ri
                ? "Run '" + ri.runId() + "' was interrupted: " + category + " (incident " + incident + "). It is kept: continue or discard it."
                : "The run failed: " + category + " (incident " + incident + "). The server log has the details.");
    }

    /** The incident of each run failure already logged, so that its event and its outcome name one. */
    private static final Map<Throwable, String> RUN_INCIDENTS = new java.util.WeakHashMap<>();

    private static String incident() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
