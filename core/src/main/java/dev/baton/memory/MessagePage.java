package dev.baton.memory;

import java.util.List;

/**
 * One page of a thread's messages, oldest first, and how many messages the thread has.
 * Immutable and thread-safe.
 *
 * @param messages the page
 * @param total    every message of the thread
 */
public record MessagePage(List<ThreadMessage> messages, long total) {
    /**
     * Copies the list.
     *
     * @param messages the page
     * @param total every message of the thread
     */
    public MessagePage {
        messages = List.copyOf(messages);
    }
}
