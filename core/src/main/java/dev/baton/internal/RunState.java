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
}
