package dev.baton.agent;

import dev.baton.internal.RunState;
import dev.baton.memory.Memory;
import dev.baton.model.Message;
import java.util.ArrayList;
import java.util.List;

/** A run and its memory thread: what the model sees of the thread, and what the run saves to it. */
final class RunMemory {
    private RunMemory() {
    }

    /** What the model sees: the thread's earlier messages (as they were when the run started), then the run's own. */
    static List<Message> conversation(RunState state) {
        if (state.history.isEmpty()) return state.messages;
        List<Message> all = new ArrayList<>(state.history.size() + state.messages.size());
        all.addAll(state.history);
        all.addAll(state.messages);
        return all;
    }

    /**
     * Saves the run's messages not yet in its thread; called only where every tool call has its
     * result (before a model call, and with the final answer). Idempotent: a retry after a crash
     * saves nothing twice, so it is not a change the run's snapshot must record at once. A thread
     * deleted meanwhile stays deleted: the run saves nothing more.
     */
    static void save(Agent agent, RunState state) {
        if (!state.memory || state.threadId == null || state.memorySaved >= state.messages.size()) return;
        Memory memory = agent.memory().orElse(null);
        if (memory == null || !memory.save(state.threadId, state.runId, state.messages, state.memorySaved)) {
            state.memory = false;
        } else {
            state.memorySaved = state.messages.size();
        }
    }
}
