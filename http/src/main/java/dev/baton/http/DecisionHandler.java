package dev.baton.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.Approver;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.DeclineOptions;
import dev.baton.store.DecisionRecord;
import dev.baton.store.StoreCapability;
import org.jspecify.annotations.Nullable;

/**
 * The decisions a person takes over HTTP on a waiting call: approve (as proposed, or with edited
 * {@code args}) and decline, each bound to the {@code digest} the person was shown, and the
 * {@link DecisionOptions} every other decision on a run (resume, continue, cancel, discard) carries.
 * Every decision is taken by the caller as an {@link Approver}: its {@link Principal#name()} is the actor
 * recorded and its {@link Principal#roles()} are what the agent's approver rules check; an {@code Idempotency-Key}
 * header is scoped to the caller ({@code <principal>:<key>}), so one caller's key never answers
 * another's request. A retry with a key already recorded runs nothing: it answers the first
 * decision's outcome, marked {@code Idempotency-Replayed: true}.
 */
final class DecisionHandler {
    /** The request header that makes a decision safe to send again. */
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** The response header set on the answer to a retry. */
    static final String REPLAYED = "Idempotency-Replayed";
    /** The longest key a caller may send (the scoped key must fit {@link DecisionRecord#MAX_ID_LENGTH}). */
    static final int MAX_KEY_LENGTH = 128;

    ApiResponse approve(ParsedRequest request) {
        String toolCallId = request.requiredString("toolCallId");
        JsonNode args = request.body().get("args");
        if (args != null && !args.isNull() && !args.isObject()) {
            throw Problem.invalidOption("args", "must be a JSON object (the tool's arguments), was "
                    + args.getNodeType().name().toLowerCase(java.util.Locale.ROOT)).raise();
        }
        ApproveOptions options = ApproveOptions.builder()
                .args(args == null || args.isNull() ? null : args)
                .digest(digest(request))
                .reason(request.string("reason", false))
                .approver(approver(request))
                .idempotencyKey(idempotencyKey(request))
                .build();
        return answer(request, RunActionHandler.checkAccess(request).approveToolCall(request.runId(), toolCallId, options));
    }

    ApiResponse decline(ParsedRequest request) {
        String toolCallId = request.requiredString("toolCallId");
        DeclineOptions options = DeclineOptions.builder()
                .reason(request.string("reason", false))
                .digest(digest(request))
                .approver(approver(request))
                .idempotencyKey(idempotencyKey(request))
                .build();
        return answer(request, RunActionHandler.checkAccess(request).declineToolCall(request.runId(), toolCallId, options));
    }

    /** Who decides, why, the key of a retry and (for resume) the digest: for the decisions on a whole run. */
    static DecisionOptions options(ParsedRequest request, @Nullable String reason, boolean digest) {
        return DecisionOptions.builder()
                .approver(approver(request))
                .reason(reason)
                .idempotencyKey(idempotencyKey(request))
                .digest(digest ? digest(request) : null)
                .build();
    }

    /**
     * Who decides: the caller's name (recorded as the actor) and roles (checked by the agent's approver
     * rules), from an authenticator's principal or Spring Security's user.
     */
    static Approver approver(ParsedRequest request) {
        Principal caller = request.caller();
        return Approver.of(caller.name(), caller.roles());
    }

    private static @Nullable String digest(ParsedRequest request) {
        String digest = request.string("digest", false);
        if (digest != null && digest.isBlank()) throw Problem.invalidOption("digest", "must not be blank").raise();
        return digest;
    }

    /**
     * The caller's {@code Idempotency-Key}, scoped to the caller, or null: 1 to {@value #MAX_KEY_LENGTH}
     * visible ASCII characters, else a 400 naming the header. Null as well when the agent's store keeps no
     * decisions ({@link StoreCapability#DECISIONS}): nothing could replay the first outcome.
     */
    static @Nullable String idempotencyKey(ParsedRequest request) {
        String key = request.header(IDEMPOTENCY_KEY);
        if (key == null) return null;
        // a store that keeps no decisions cannot replay one: the key is ignored (a retry answers as without it)
        if (!request.target().store().capabilities().contains(StoreCapability.DECISIONS)) return null;
        key = key.trim();
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH || !key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw Problem.invalidOption(IDEMPOTENCY_KEY, "must be 1 to " + MAX_KEY_LENGTH
                    + " visible ASCII characters (a UUID, for example)").raise();
        }
        String scoped = request.caller().name() + ":" + key;
        if (scoped.length() > DecisionRecord.MAX_ID_LENGTH) {
            throw Problem.invalidOption(IDEMPOTENCY_KEY, "with your principal's name it is longer than "
                    + DecisionRecord.MAX_ID_LENGTH + " characters: send a shorter key").raise();
        }
        return scoped;
    }

    /** The answer to a decision: marked when it replays the first one of a retry. */
    static ApiResponse answer(ParsedRequest request, AgentStream stream) {
        boolean replayed = stream.replayed();
        ApiResponse response = RunActionHandler.streamOrResult(request, stream);
        return replayed ? response.withHeader(REPLAYED, "true") : response;
    }
}
