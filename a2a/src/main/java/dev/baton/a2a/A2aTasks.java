package dev.baton.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.InvalidOptionException;
import dev.baton.ThreadAlreadyExistsException;
import dev.baton.a2a.A2aProtocol.InMessage;
import dev.baton.a2a.A2aProtocol.InPart;
import dev.baton.a2a.A2aProtocol.PushConfig;
import dev.baton.a2a.A2aProtocol.TaskView;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.Approver;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.DeclineOptions;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.http.Principal;
import dev.baton.memory.Memory;
import dev.baton.store.DecisionRecord;
import dev.baton.store.MemoryThread;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.StoreCapability;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An agent's runs as A2A tasks: the rules, protocol-neutral. The task id names the run, its resource
 * and its thread ({@link TaskRef}); the run itself (while it is stored) says whether it works or waits,
 * and the task log, kept in the thread's metadata under {@code a2a-task:<runId>}, keeps what outlives
 * the run (its final state and answer, the push configs). Both are in the agent's store, so any
 * instance answers for any task.
 */
final class A2aTasks {
    static final String LOG_KEY = "a2a-task:";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<String> YES = Set.of("approve", "approved", "yes", "y", "ok");
    private static final Set<String> NO = Set.of("decline", "declined", "no", "n", "reject");

    final Agent agent;
    private final Memory memory;

    A2aTasks(Agent agent) {
        this.agent = agent;
        if (agent.memory().isPresent()) {
            this.memory = agent.memory().get();
        } else if (agent.store().capabilities().contains(StoreCapability.THREAD_MEMORY)) {
            this.memory = Memory.builder().store(agent.store()).build();
        } else {
            throw new InvalidOptionException("agent", "A2A keeps each task's log in thread memory: the store of agent '"
                    + agent.id() + "' (" + agent.store().describe() + ") has no THREAD_MEMORY");
        }
    }

    // ---- starting and following up -----------------------------------------------------------------

    /** A run started or continued for a message: its task, and the stream to drain (null: nothing runs, a replay). */
    record Started(TaskRef ref, @Nullable AgentStream stream) {
    }

    Started start(Principal caller, InMessage m) {
        if (m.parts().isEmpty()) throw A2aError.invalidParams("the message has no parts");
        String resource = resourceFor(caller, m.metadata());
        String context = m.contextId() != null ? m.contextId() : UUID.randomUUID().toString();
        ensureThread(resource, context);
        AgentStream stream = agent.stream(m.prompt(), RunOptions.builder().threadId(context).resourceId(resource).startedBy(caller.name()).build());
        TaskRef ref = new TaskRef(stream.runId(), resource, context);
        writeLog(ref, log -> {
            log.put("state", "working").put("caller", caller.name());
            if (m.push() != null) putPush(log, m.push());
        });
        return new Started(ref, stream);
    }

    /** A follow-up message on a waiting task: approves, edits, declines or answers its waiting call. */
    Started followUp(Principal caller, InMessage m) {
        TaskRef ref = access(caller, m.taskId());
        if (m.contextId() != null && !m.contextId().equals(ref.contextId())) {
            throw A2aError.invalidParams("the message's contextId is not the task's");
        }
        Optional<AgentRun> waiting = waitingRun(ref);
        String key = idempotencyKey(caller, m.messageId());
        if (waiting.isEmpty() || waiting.get().toolCalls().isEmpty()) {
            if (key != null && agent.store().findDecision(agent.id(), key).isPresent()) {
                // a retry of the caller's decision that ended the run: answer the task as it ended
                return new Started(ref, null);
            }
            TaskView v = view(ref);
            throw A2aError.invalidParams("task " + ref.id() + " is " + v.state() + ": it waits for no input");
        }
        if (m.push() != null) writeLog(ref, log -> putPush(log, m.push()));
        List<AgentRunToolCall> calls = waiting.get().toolCalls();
        JsonNode decision = null;
        String text = null;
        for (InPart p : m.parts()) {
            if (p.data() != null && decision == null) decision = p.data();
            if (p.text() != null && text == null) text = p.text();
        }
        String kind;
        String toolCallId;
        if (decision != null && decision.hasNonNull("decision")) {
            kind = decision.get("decision").asText().toLowerCase(Locale.ROOT);
            toolCallId = decision.path("toolCallId").isTextual() ? decision.get("toolCallId").asText() : only(calls).toolCallId();
        } else {
            AgentRunToolCall call = only(calls);
            toolCallId = call.toolCallId();
            if (call.requiresApproval()) {
                String word = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
                if (YES.contains(word)) kind = "approve";
                else if (NO.contains(word)) kind = "decline";
                else throw A2aError.invalidParams("call " + toolCallId + " waits for an approval: answer approve or decline "
                        + "(text), or a data part {\"decision\":\"approve|edit|decline\", ...}");
            } else {
                kind = "answer";
                decision = decision != null ? NODES.objectNode().set("data", decision) : NODES.objectNode().put("data", text);
            }
        }
        String digest = decision != null && decision.path("digest").isTextual() ? decision.get("digest").asText() : null;
        String reason = decision != null && decision.path("reason").isTextual() ? decision.get("reason").asText() : null;
        AgentStream stream = switch (kind) {
            case "approve", "edit" -> {
                JsonNode args = decision == null ? null : decision.get("args");
                if ("edit".equals(kind) && (args == null || !args.isObject())) throw A2aError.invalidParams("an edit needs args (a JSON object)");
                yield agent.approveToolCall(ref.runId(), toolCallId, ApproveOptions.builder()
                        .args(args != null && args.isObject() ? args : null).digest(digest).reason(reason)
                        .approver(approver(caller)).idempotencyKey(key).build());
            }
            case "decline" -> agent.declineToolCall(ref.runId(), toolCallId, DeclineOptions.builder()
                    .reason(reason).digest(digest).approver(approver(caller)).idempotencyKey(key).build());
            case "answer" -> agent.resumeStream(decision.get("data"), ResumeOptions.of(ref.runId(), toolCallId),
                    DecisionOptions.builder().approver(approver(caller)).idempotencyKey(key).digest(digest).build());
            default -> throw A2aError.invalidParams("unknown decision '" + kind + "': approve, edit, decline or answer");
        };
        return new Started(ref, stream);
    }

    private static AgentRunToolCall only(List<AgentRunToolCall> calls) {
        if (calls.size() != 1) {
            throw A2aError.invalidParams("the task waits for " + calls.size() + " calls: name one (data part toolCallId)");
        }
        return calls.get(0);
    }

    /** Drains a run's stream and records how it ended in the task log. */
    TaskView finish(Started started) {
        if (started.stream() == null) return view(started.ref());
        AgentResult result;
        try (AgentStream s = started.stream()) {
            result = s.result();
        }
        record(started.ref(), result);
        return view(started.ref());
    }

    void record(TaskRef ref, AgentResult result) {
        String state = switch (result.outcome()) {
            case COMPLETED -> "completed";
            case CANCELLED -> "canceled";
            case FAILED -> "failed";
            case SUSPENDED -> "input-required";
            case INTERRUPTED -> "working";
        };
        writeLog(ref, log -> {
            log.put("state", state).put("at", agent.clock().instant().toString());
            if (!result.text().isEmpty()) log.put("text", result.text());
        });
    }

    TaskView cancel(Principal caller, String taskId) {
        TaskRef ref = access(caller, taskId);
        TaskView v = view(ref);
        if (v.isFinal()) throw new A2aError(A2aError.TASK_NOT_CANCELABLE, "Task cannot be canceled: it is " + v.state());
        AgentResult result = agent.cancelRun(ref.runId(), DecisionOptions.builder().approver(approver(caller)).reason("canceled over A2A").build());
        record(ref, result);
        return view(ref);
    }

    // ---- reading -----------------------------------------------------------------------------------

    /** Who decides: the A2A caller with its roles, for the agent's approver rules (docs/approvals.md). */
    private static Approver approver(Principal caller) {
        return Approver.of(caller.name(), caller.roles());
    }

    TaskView get(Principal caller, String taskId) {
        return view(access(caller, taskId));
    }

    /**
     * The task, once the caller may see it: the id must name a run of this agent whose resource the
     * caller may access, with the same resource and thread as stored; anything else is "not found",
     * exactly like a task that does not exist.
     */
    TaskRef access(Principal caller, @Nullable String taskId) {
        TaskRef ref = TaskRef.parse(taskId).orElseThrow(() -> A2aError.taskNotFound(String.valueOf(taskId)));
        if (!caller.mayAccess(ref.resourceId())) throw A2aError.taskNotFound(ref.id());
        Optional<RunSnapshot> run = run(ref);
        if (run.isEmpty() && log(ref).isEmpty()) throw A2aError.taskNotFound(ref.id());
        return ref;
    }

    private Optional<RunSnapshot> run(TaskRef ref) {
        return agent.store().find(ref.runId()).filter(r -> r.agentId().equals(agent.id())
                && java.util.Objects.equals(r.resourceId(), ref.resourceId()) && ref.contextId().equals(r.threadId()));
    }

    private Optional<AgentRun> waitingRun(TaskRef ref) {
        // one read by id (a thread may hold more waiting runs than a listing page); the task's resource and context must match
        return agent.findSuspendedRun(ref.runId())
                .filter(r -> java.util.Objects.equals(r.threadId(), ref.contextId()) && java.util.Objects.equals(r.resourceId(), ref.resourceId()));
    }

    /** The task as it stands: from the stored run while there is one, else from the task log. */
    TaskView view(TaskRef ref) {
        Map<String, Object> meta = new java.util.LinkedHashMap<>();
        meta.put("batonRunId", ref.runId());
        meta.put("batonAgentId", agent.id());
        Optional<RunSnapshot> run = run(ref);
        Optional<ObjectNode> log = log(ref);
        if (run.isPresent()) {
            Instant now = agent.clock().instant();
            if (run.get().effectiveStatus(now) == RunStatus.SUSPENDED) {
                Optional<AgentRun> waiting = waitingRun(ref);
                if (waiting.isPresent() && !waiting.get().toolCalls().isEmpty()) {
                    return waitingView(ref, waiting.get(), meta);
                }
                String why = waiting.map(AgentRun::interruption).orElse(null);
                return new TaskView(ref.id(), ref.contextId(), "working", why, null, null, run.get().suspendedAt(), meta);
            }
            return new TaskView(ref.id(), ref.contextId(), "working", null, null, null, now, meta);
        }
        ObjectNode l = log.orElseThrow(() -> A2aError.taskNotFound(ref.id()));
        String state = l.path("state").asText("working");
        if (!A2aProtocol.isFinal(state)) state = "unknown";   // a log without its run: it ended before its end was recorded
        Instant at = l.hasNonNull("at") ? Instant.parse(l.get("at").asText()) : agent.clock().instant();
        String text = l.hasNonNull("text") ? l.get("text").asText() : null;
        return new TaskView(ref.id(), ref.contextId(), state, "failed".equals(state) ? text : null, null,
                "completed".equals(state) ? text : null, at, meta);
    }

    private TaskView waitingView(TaskRef ref, AgentRun run, Map<String, Object> meta) {
        ArrayNode calls = NODES.arrayNode();
        List<String> lines = new ArrayList<>();
        for (AgentRunToolCall c : run.toolCalls()) {
            ObjectNode call = calls.addObject().put("toolCallId", c.toolCallId()).put("toolName", c.toolName())
                    .put("requiresApproval", c.requiresApproval()).put("digest", c.digest());
            if (c.args() != null) call.set("args", c.args());
            if (c.suspendPayload() != null) call.set("payload", c.suspendPayload());
            if (c.expiresAt() != null) call.put("expiresAt", c.expiresAt().toString());
            lines.add(c.requiresApproval()
                    ? "Waits for an approval: " + c.toolName() + " " + c.args() + " (answer approve or decline)"
                    : "Waits for data: " + c.toolName() + (c.suspendPayload() == null ? "" : " " + c.suspendPayload()));
        }
        ObjectNode data = NODES.objectNode().put("batonRunId", ref.runId());
        data.set("toolCalls", calls);
        return new TaskView(ref.id(), ref.contextId(), "input-required", String.join("\n", lines), data, null,
                run.suspendedAt(), meta);
    }

    // ---- push configs ------------------------------------------------------------------------------

    PushConfig setPush(Principal caller, String taskId, PushConfig config) {
        TaskRef ref = access(caller, taskId);
        writeLog(ref, log -> putPush(log, config));
        return config;
    }

    List<PushConfig> pushConfigs(TaskRef ref) {
        List<PushConfig> out = new ArrayList<>();
        log(ref).ifPresent(l -> l.path("push").forEach(p -> out.add(new PushConfig(p.path("id").asText(), p.path("url").asText(),
                p.hasNonNull("token") ? p.get("token").asText() : null))));
        return out;
    }

    boolean deletePush(Principal caller, String taskId, String configId) {
        TaskRef ref = access(caller, taskId);
        boolean[] removed = {false};
        writeLog(ref, log -> {
            ArrayNode push = log.withArray("push");
            for (int i = push.size() - 1; i >= 0; i--) {
                if (push.get(i).path("id").asText().equals(configId)) {
                    push.remove(i);
                    removed[0] = true;
                }
            }
        });
        return removed[0];
    }

    private static void putPush(ObjectNode log, PushConfig c) {
        ArrayNode push = log.withArray("push");
        for (int i = push.size() - 1; i >= 0; i--) if (push.get(i).path("id").asText().equals(c.id())) push.remove(i);
        ObjectNode p = push.addObject().put("id", c.id()).put("url", c.url());
        if (c.token() != null) p.put("token", c.token());
    }

    // ---- the task log in thread memory --------------------------------------------------------------

    Optional<ObjectNode> log(TaskRef ref) {
        return memory.findThread(ref.resourceId(), ref.contextId())
                .map(t -> t.metadata().get(LOG_KEY + ref.runId()))
                .filter(JsonNode::isObject).map(n -> (ObjectNode) n);
    }

    private void ensureThread(@Nullable String resource, String context) {
        try {
            if (memory.findThread(resource, context).isEmpty()) memory.createThread(context, resource, null, Map.of());
        } catch (ThreadAlreadyExistsException raced) {
            // another request created it: fine
        }
    }

    /** Read, change, write: the thread's other keys are kept. Local writers are serialized. */
    private synchronized void writeLog(TaskRef ref, java.util.function.Consumer<ObjectNode> change) {
        ensureThread(ref.resourceId(), ref.contextId());
        MemoryThread thread = memory.findThread(ref.resourceId(), ref.contextId()).orElseThrow();
        ObjectNode metadata = thread.metadata();
        JsonNode old = metadata.get(LOG_KEY + ref.runId());
        ObjectNode log = old instanceof ObjectNode o ? o : NODES.objectNode();
        change.accept(log);
        metadata.set(LOG_KEY + ref.runId(), log);
        memory.updateThread(ref.resourceId(), ref.contextId(), null, A2aProtocol.JSON.convertValue(metadata, Map.class));
    }

    // ---- callers -----------------------------------------------------------------------------------

    /**
     * The resource a caller's new task runs for: a principal limited to one resource runs for it; one
     * limited to several names one in {@code message.metadata.resourceId}; an unrestricted one may name
     * any (or none).
     */
    static @Nullable String resourceFor(Principal caller, @Nullable JsonNode metadata) {
        String asked = metadata != null && metadata.path("resourceId").isTextual() ? metadata.get("resourceId").asText() : null;
        Set<String> allowed = caller.resourceIds();
        if (allowed == null) return asked;
        if (asked != null) {
            if (!allowed.contains(asked)) throw A2aError.invalidParams("message.metadata.resourceId is not one of your resources");
            return asked;
        }
        if (allowed.size() == 1) return allowed.iterator().next();
        throw A2aError.invalidParams("you have several resources: name one in message.metadata.resourceId");
    }

    /** The decision's idempotency key: the A2A message id, scoped to the caller; null where no store keeps decisions. */
    @Nullable String idempotencyKey(Principal caller, @Nullable String messageId) {
        if (messageId == null || messageId.isBlank()) return null;
        if (!agent.store().capabilities().contains(StoreCapability.DECISIONS)) return null;
        String key = caller.name() + ":a2a:" + messageId;
        return key.length() > DecisionRecord.MAX_ID_LENGTH ? null : key;
    }

    /** Applies {@code f} with Baton's exceptions turned into A2A errors. */
    static <T> T mapped(String taskId, java.util.function.Supplier<T> f) {
        try {
            return f.get();
        } catch (RuntimeException e) {
            throw A2aError.of(e, taskId);
        }
    }

}
