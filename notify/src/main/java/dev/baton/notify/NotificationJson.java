package dev.baton.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The JSON of notifications: the webhook's payload, Slack's message, and the waiting calls read from a run's summary. */
final class NotificationJson {
    static final ObjectMapper JSON = new ObjectMapper();

    private NotificationJson() {
    }

    /**
     * The webhook body: {@code {"type":"run.suspended","timestamp":"<when it occurred>","id":...,"data":{...}}},
     * the payload structure Standard Webhooks recommends.
     */
    static byte[] webhook(Notification n) {
        ObjectNode o = JSON.createObjectNode();
        o.put("type", "run." + n.event().name().toLowerCase(Locale.ROOT));
        o.put("timestamp", n.occurredAt().toString());
        o.put("id", n.id());
        ObjectNode d = o.putObject("data");
        d.put("agentId", n.agentId());
        d.put("runId", n.runId());
        d.put("threadId", n.threadId());
        d.put("resourceId", n.resourceId());
        d.put("event", n.event().name());
        d.put("suspendedAt", n.suspendedAt().toString());
        d.put("expiresAt", n.expiresAt() == null ? null : n.expiresAt().toString());
        d.put("interruption", n.interruption());
        ArrayNode calls = d.putArray("waitingCalls");
        for (Notification.WaitingCall c : n.waitingCalls()) {
            ObjectNode call = calls.addObject();
            call.put("toolCallId", c.toolCallId());
            call.put("toolName", c.toolName());
            call.put("requiresApproval", c.requiresApproval());
            call.put("expiresAt", c.expiresAt() == null ? null : c.expiresAt().toString());
        }
        d.put("link", n.link() == null ? null : n.link().toString());
        d.put("text", n.text());
        return o.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A Slack incoming-webhook message: {@code text} (the fallback, shown in notifications) and blocks
     * with a button to the inbox. Slack reads both as mrkdwn, where {@code <...>} is a link or a
     * mention ({@code <!channel>}), so every text from a run (its agent, resource and tool names) is
     * escaped in both.
     */
    static byte[] slack(Notification n) {
        ObjectNode o = JSON.createObjectNode();
        o.put("text", escape(n.text() + (n.link() == null ? "" : " " + n.link())));
        ArrayNode blocks = o.putArray("blocks");
        ObjectNode section = blocks.addObject();
        section.put("type", "section");
        ObjectNode mrkdwn = section.putObject("text");
        mrkdwn.put("type", "mrkdwn");
        mrkdwn.put("text", escape(n.text()));
        if (n.link() != null) {
            ObjectNode actions = blocks.addObject();
            actions.put("type", "actions");
            ObjectNode button = actions.putArray("elements").addObject();
            button.put("type", "button");
            button.putObject("text").put("type", "plain_text").put("text", "Open in the inbox");
            button.put("url", n.link().toString());
        }
        ObjectNode context = blocks.addObject();
        context.put("type", "context");
        context.putArray("elements").addObject().put("type", "mrkdwn").put("text", escape("notification " + n.id()));
        return o.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Slack's three escapes in mrkdwn text. */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /**
     * The waiting calls of a run's listing summary (the JSON core writes beside the payload: its
     * {@code calls}); none if it cannot be read, so that a notification is still sent.
     */
    static List<Notification.WaitingCall> waitingCalls(String summary) {
        List<Notification.WaitingCall> out = new ArrayList<>();
        try {
            JsonNode calls = JSON.readTree(summary).path("calls");
            for (JsonNode c : calls) {
                out.add(new Notification.WaitingCall(c.path("toolCallId").asText(""), c.path("toolName").asText(""),
                        c.path("requiresApproval").asBoolean(false), instant(c.get("expiresAt"))));
            }
        } catch (Exception e) {
            return List.of();
        }
        return out;
    }

    /** The run's interruption in its summary, or null. */
    static @Nullable String interruption(String summary) {
        try {
            JsonNode i = JSON.readTree(summary).get("interruption");
            return i == null || i.isNull() ? null : i.asText();
        } catch (Exception e) {
            return null;
        }
    }

    private static @Nullable Instant instant(@Nullable JsonNode n) {
        if (n == null || n.isNull()) return null;
        if (n.isNumber()) {
            // Jackson's JavaTimeModule writes seconds.nanos when timestamps are numeric
            double seconds = n.asDouble();
            return Instant.ofEpochMilli(Math.round(seconds * 1000));
        }
        try {
            return Instant.parse(n.asText());
        } catch (RuntimeException e) {
            return null;
        }
    }
}
