package dev.baton;

import java.util.List;

/** The run exists and is suspended, but has no waiting tool call with this id. */
public class ToolCallNotFoundException extends BatonException {
    private static final long serialVersionUID = 1L;

    public ToolCallNotFoundException(String runId, String toolCallId, List<String> waiting) {
        super("Run '" + runId + "' has no waiting tool call '" + toolCallId + "'; waiting calls: " + waiting);
    }
}
