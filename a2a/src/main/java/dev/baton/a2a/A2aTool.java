package dev.baton.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.InvalidOptionException;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolContext;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A remote A2A agent (protocol 0.3.0, JSON-RPC) as a Baton tool: the model calls it with a
 * {@code message}, the tool sends it to the remote agent and returns the remote task's answer.
 *
 * <p>When the remote task goes {@code input-required} (or {@code auth-required}), the Baton run
 * suspends with it: the listing shows the call's payload {@code {"a2aTaskId", "a2aContextId", "state",
 * "question", "data", "round"}}; resuming the run ({@code resumeStream(answer, runId)}) sends the answer
 * (text, or a JSON object as a data part) to the remote task, and the tool goes on from there, as many
 * rounds as the remote agent asks. The message id of each send is the call's idempotency key (with the
 * round), so a Baton server on the other side treats a send retried after a crash as the same decision.
 *
 * <pre>{@code
 * Tool billing = A2aTool.builder("billing", URI.create("https://billing.example.com/a2a"))
 *         .description("Asks the billing agent; it may ask back")
 *         .header("Authorization", "Bearer " + token)
 *         .build();
 * }</pre>
 *
 * <p>The tool is thread-safe; a call blocks while the remote agent works (at most {@link Builder#timeout}).
 */
public final class A2aTool {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\","
            + "\"description\":\"what to ask the remote agent\"}},\"required\":[\"message\"],\"additionalProperties\":false}";

    private A2aTool() {
    }

    /**
     * Starts a tool calling the A2A agent at {@code url} (its JSON-RPC endpoint, the card's {@code url}).
     *
     * @param name the tool's name, as the model sees it
     * @param url  the remote agent's endpoint
     * @return the builder
     */
    public static Builder builder(String name, URI url) {
        return new Builder(name, url);
    }

    private static @Nullable Object execute(RemoteAgent remote, Duration timeout, Duration poll, JsonNode input, ToolContext ctx)
            throws Exception {
        RemoteAgent.Reply reply;
        int round;
        if (!ctx.isResumed()) {
            round = 0;
            JsonNode message = input.get("message");
            if (message == null || !message.isTextual()) throw new IllegalArgumentException("message (a string) is required");
            reply = remote.send(ctx.idempotencyKey(), null, null, TextNode.valueOf(message.asText()));
        } else {
            JsonNode waited = Objects.requireNonNull(ctx.suspendPayload(), "suspendPayload");
            round = waited.path("round").asInt() + 1;
            JsonNode answer = ctx.resumeData();
            reply = remote.send(ctx.idempotencyKey() + ":" + round, waited.path("a2aTaskId").asText(),
                    waited.path("a2aContextId").asText(null), answer == null ? TextNode.valueOf("") : answer);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while ((reply.state().equals("working") || reply.state().equals("submitted")) && reply.taskId() != null) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the remote task " + reply.taskId() + " still works after " + timeout);
            }
            Thread.sleep(poll.toMillis());
            reply = remote.get(reply.taskId());
        }
        switch (reply.state()) {
            case "completed":
                return reply.result().isEmpty() ? reply.question() : reply.result();
            case "input-required":
            case "auth-required": {
                ObjectNode payload = NODES.objectNode().put("a2aTaskId", reply.taskId()).put("a2aContextId", reply.contextId())
                        .put("state", reply.state()).put("question", reply.question()).put("round", round);
                if (reply.data() != null) payload.set("data", reply.data());
                return ctx.suspend(payload);
            }
            default:
                throw new IllegalStateException("the remote task " + reply.taskId() + " ended " + reply.state()
                        + (reply.question().isEmpty() ? "" : ": " + reply.question()));
        }
    }

    /** Builder of an A2A tool: not thread-safe. */
    public static final class Builder {
        private final String name;
        private final URI url;
        private String description;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private Duration timeout = Duration.ofMinutes(2);
        private Duration pollInterval = Duration.ofMillis(500);
        private boolean requireApproval;

        private Builder(String name, URI url) {
            this.name = Objects.requireNonNull(name, "name");
            this.url = Objects.requireNonNull(url, "url");
            if (url.getScheme() == null || !(url.getScheme().equals("http") || url.getScheme().equals("https")) || url.getHost() == null) {
                throw new InvalidOptionException("url", "must be an http or https URL with a host, was " + url);
            }
            this.description = "Asks the A2A agent at " + url;
        }

        /**
         * What the model is told the tool does.
         *
         * @param description the description
         * @return this builder
         */
        public Builder description(String description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        /**
         * A header sent with every call (an {@code Authorization}, for example).
         *
         * @param name  the header's name
         * @param value its value
         * @return this builder
         */
        public Builder header(String name, String value) {
            headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * How long a call waits for a remote task that still works (default 2 minutes), polling it.
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) throw new InvalidOptionException("timeout", "must be positive");
            this.timeout = timeout;
            return this;
        }

        /**
         * How often a working remote task is polled (default 500 ms).
         *
         * @param interval positive
         * @return this builder
         */
        public Builder pollInterval(Duration interval) {
            if (interval.isNegative() || interval.isZero()) throw new InvalidOptionException("pollInterval", "must be positive");
            this.pollInterval = interval;
            return this;
        }

        /**
         * Whether a person approves each call before it is sent (default false).
         *
         * @param required true to ask first
         * @return this builder
         */
        public Builder requireApproval(boolean required) {
            this.requireApproval = required;
            return this;
        }

        /** {@return the tool} */
        public Tool build() {
            RemoteAgent remote = new RemoteAgent(url.toString(), headers);
            Duration t = timeout;
            Duration p = pollInterval;
            return Tool.builder(name).description(description).inputSchema(SCHEMA).requireApproval(requireApproval)
                    .execute((input, ctx) -> execute(remote, t, p, input, ctx)).build();
        }
    }
}
