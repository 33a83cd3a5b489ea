package dev.baton.memory;

import java.util.List;

/**
 * One page of threads, newest update first, and how many threads match before paging.
 *
 * @param threads the page
 * @param total   every thread of the resource
 */
public record ThreadPage(List<MemoryThread> threads, long total) {
    public ThreadPage {
        threads = List.copyOf(threads);
    }
}
