package dev.baton.http;

import dev.baton.AlreadyDecidedException;
import dev.baton.tool.InvalidToolInputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The problems of decisions that need more than their message and ids ({@link Problem#from} asks here
 * first; {@code decision-conflict} and {@code not-an-approver} are in its table):
 * <ul>
 *   <li>400 {@code invalid-tool-input}: edited arguments that break the tool's input schema; nothing
 *       changed. {@code option} is {@code args}, {@code errors} names each field and its rule.</li>
 *   <li>409 {@code already-decided}: the call (or run) was decided before: {@code decision},
 *       {@code actor}, {@code decidedAt} and {@code next}, what to do now (for example
 *       {@code POST .../continue} for a run left interrupted by a crash).</li>
 *   <li>501 {@code decisions-unsupported}: the agent's store keeps no decisions (its name stays in the log).</li>
 * </ul>
 */
final class DecisionProblems {
    /** "field 'to' is required": the field, then the rule. */
    private static final Pattern FIELD = Pattern.compile("^field '([^']*)' (.+)$");

    private DecisionProblems() {
    }

    /** The problem of a decision's exception, or null if it is none of these. */
    static @Nullable Problem of(Throwable e) {
        if (e instanceof InvalidToolInputException it) {
            return Problem.of(400, "invalid-tool-input", "Invalid tool input", it.getMessage() + ". Nothing was changed.")
                    .with("option", "args").with("toolName", it.toolName()).with("errors", errors(it.problems()));
        }
        if (e instanceof AlreadyDecidedException ad) {
            return Problem.of(409, "already-decided", "Already decided", ad.getMessage()).with("runId", ad.runId())
                    .withPresent("toolCallId", ad.toolCallId()).with("decision", ad.decision()).withPresent("actor", ad.actor())
                    .withPresent("decidedAt", Objects.toString(ad.decidedAt(), null)).with("next", ad.next());
        }
        return null;
    }

    /** The agent's store keeps no decisions. */
    static Problem unsupported(String agentId) {
        return Problem.of(501, "decisions-unsupported", "Decisions not kept",
                "The store of agent '" + agentId + "' keeps no decisions (it lacks the capability DECISIONS): there is no "
                        + "audit trail to list. Decisions are still carried out.").with("agentId", agentId);
    }

    /** Each problem as {@code {field, rule}} (field null when the message names none). */
    private static List<Map<String, @Nullable String>> errors(List<String> problems) {
        List<Map<String, @Nullable String>> out = new ArrayList<>();
        for (String p : problems) {
            Map<String, @Nullable String> e = new LinkedHashMap<>();
            Matcher m = FIELD.matcher(p);
            e.put("field", m.matches() ? m.group(1) : null);
            e.put("rule", m.matches() ? m.group(2) : p);
            out.add(e);
        }
        return out;
    }
}
