package dev.baton.model;

import java.util.List;
import java.util.Objects;

/**
 * One step's input to the model.
 *
 * <p>Immutable and thread-safe (its messages copy their JSON in and out).
 *
 * @param instructions the agent's system instructions
 * @param messages     the conversation so far, oldest first
 * @param tools        the tools the model may call
 */
public record ModelRequest(String instructions, List<Message> messages, List<ToolDefinition> tools) {
    /**
     * Creates the record.
     *
     * @param instructions the agent's system instructions
     * @param messages the conversation so far, oldest first
     * @param tools the tools the model may call
     */
    public ModelRequest {
        Objects.requireNonNull(instructions, "instructions");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
    }

    /**
     * The last message, the one the model answers.
     *
     * @return the last message
     * @throws IllegalStateException if there are no messages
     */
    public Message lastMessage() {
        if (messages.isEmpty()) throw new IllegalStateException("no messages");
        return messages.get(messages.size() - 1);
    }

    /**
     * How many steps the model has answered already in this run.
     *
     * @return the number of assistant messages
     */
    public int completedSteps() {
        int n = 0;
        for (Message m : messages) if (m instanceof Message.Assistant) n++;
        return n;
    }
}
