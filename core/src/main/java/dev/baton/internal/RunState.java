package dev.baton.internal;

import dev.baton.model.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Everything needed to continue a run, serialised as the snapshot payload. Not API.
 * Field names are the stored JSON format: change them only with a new {@link SnapshotCodec#FORMAT_VERSION}.
 */
public final class RunState {
    public int formatVersion = SnapshotCodec.FORMAT_VERSION;
    public String runId = "";
    public String agentId = "";
    public @Nullable String threadId;
    public @Nullable String resourceId;
    public Instant createdAt = Instant.EPOCH;
    public int maxSteps = 10;
    /** The number of the current (or last) step; 0 before the first model call. */
    public int step;
    public List<Message> messages = new ArrayList<>();
    /** The tool calls of the current step, in the model's order. */
    public List<CallState> calls = new ArrayList<>();
    /** For a subagent's inner run: the supervisor's agent id and run that wait on it, else null. */
    public @Nullable String parentAgentId;
    public @Nullable String parentRunId;
    /** The text produced so far in this run. */
    public String text = "";
    /**
     * Why the run stopped part-way when it was last stored (a model failure, an interrupted thread,
     * a stream closed early), else null. Listed as {@code AgentRun.interruption()}; cleared when the
     * run is claimed again.
     */
    public @Nullable String interruption;
    /** The thread's earlier messages the model sees before the run's own (thread memory), as they were when the run started. */
    public List<Message> history = new ArrayList<>();
    /** True when the run saves its messages to its thread (the agent has a Memory and the run a threadId). */
    public boolean memory;
    /** How many of the run's own messages are saved to its thread. */
    public int memorySaved;
    /**
     * Not stored: true once this process has checked what the thread already holds of the run (a
     * crash may have come after an append that {@link #memorySaved} does not record yet).
     */
    public transient boolean memoryChecked;
    /**
     * Not stored: the key the run's thread is stored under ({@link ThreadKeys}), once this process
     * has found it; null before.
     */
    public transient @Nullable String threadKey;
    /** Who started the run (RunOptions.startedBy), for separation of duties, or null. */
    public @Nullable String startedBy;
    /** The run's own wait timeout (RunOptions.waitTimeout), in milliseconds, or null. */
    public @Nullable Long waitTimeoutMillis;

    /** The calls waiting for a human or for data. */
    public List<CallState> waitingCalls() {
        List<CallState> out = new ArrayList<>();
        for (CallState c : calls) if (c.waiting()) out.add(c);
        return out;
    }

    /** The call with this id in the current step, or null. */
    public @Nullable CallState call(String toolCallId) {
        for (CallState c : calls) if (c.toolCallId.equals(toolCallId)) return c;
        return null;
    }
}
