package dev.baton.http;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The bound on concurrent event streams per principal: a route's handler wrapped by {@link #limit}
 * takes one of the caller's slots before it runs, and gives it back when the event stream it answers
 * ends (the run suspended or ended, the client went away, the server closed it), or at once when it
 * answers anything else. A caller with all its slots taken gets 429 {@code too-many-streams} with
 * {@code Retry-After}, before anything runs. Slots are counted per {@link Principal#name()}.
 */
final class StreamLimit {
    /** The seconds a refused caller is told to wait. */
    static final String RETRY_AFTER = "5";

    private final int max;
    private final ConcurrentHashMap<String, Integer> open = new ConcurrentHashMap<>();

    StreamLimit(int max) {
        this.max = max;
    }

    /** {@code handler}, answering 429 when the caller has {@code max} streams open. */
    Router.Handler limit(Router.Handler handler) {
        return request -> {
            if (request.wantsJson()) return handler.handle(request);   // no stream: the drained result
            String who = request.caller().name();
            acquire(who);
            boolean handedOver = false;
            try {
                ApiResponse response = handler.handle(request);
                if (!response.isStream()) return response;
                ApiResponse counted = response.onStreamEnd(() -> release(who));
                handedOver = true;
                return counted;
            } finally {
                if (!handedOver) release(who);
            }
        };
    }

    /** The streams {@code name} has open now: for tests. */
    int open(String name) {
        return open.getOrDefault(name, 0);
    }

    private void acquire(String who) {
        boolean[] taken = {false};
        open.compute(who, (k, n) -> {
            int count = n == null ? 0 : n;
            if (count >= max) return n;
            taken[0] = true;
            return count + 1;
        });
        if (!taken[0]) {
            throw Problem.of(429, "too-many-streams", "Too many event streams",
                            "You have " + max + " event streams open, the most one caller may. Close one, or ask for "
                                    + "the result as JSON (Accept: application/json), then try again.")
                    .with("maxStreams", max).withHeader("Retry-After", RETRY_AFTER).raise();
        }
    }

    private void release(String who) {
        open.computeIfPresent(who, (k, n) -> n <= 1 ? null : n - 1);
    }
}
