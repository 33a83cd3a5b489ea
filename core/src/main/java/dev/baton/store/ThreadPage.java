package dev.baton.store;

import java.util.List;

/**
 * One page of threads, newest update first, and how many threads match before paging.
 * Immutable and thread-safe.
 *
 * @param threads the page
 * @param total   every thread of the resource
 */
public record ThreadPage(List<MemoryThread> threads, long total) {
    /**
     * Copies the list.
     *
     * @param threads the page
     * @param total every thread of the resource
     */
    public ThreadPage {
        threads = List.copyOf(threads);
    }
}
