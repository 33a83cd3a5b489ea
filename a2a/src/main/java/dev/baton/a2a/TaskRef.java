package dev.baton.a2a;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * An A2A task id: the run id, the run's resource and its thread (the A2A context id), so that any
 * instance finds the task's log in the thread's memory from the id alone. The resource in it is
 * no secret from the caller (it is their own) and grants nothing: every use checks the caller may
 * access it and that the stored run has the same resource and thread.
 */
record TaskRef(String runId, @Nullable String resourceId, String contextId) {
    private static final char SEP = '~';

    String id() {
        return runId + SEP + enc(resourceId == null ? "" : resourceId) + SEP + enc(contextId);
    }

    static Optional<TaskRef> parse(@Nullable String id) {
        if (id == null) return Optional.empty();
        String[] p = id.split(String.valueOf(SEP), -1);
        if (p.length != 3 || p[0].isEmpty()) return Optional.empty();
        try {
            String resource = dec(p[1]);
            String context = dec(p[2]);
            if (context.isEmpty()) return Optional.empty();
            return Optional.of(new TaskRef(p[0], resource.isEmpty() ? null : resource, context));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String enc(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String dec(String s) {
        return new String(Base64.getUrlDecoder().decode(s), StandardCharsets.UTF_8);
    }
}
