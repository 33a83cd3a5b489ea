package dev.baton.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import io.a2a.client.http.JdkA2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.spi.interceptors.ClientCallContext;
import io.a2a.spec.A2AClientException;
import io.a2a.spec.TaskQueryParams;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A remote A2A agent through the SDK's JSON-RPC client: the only client-side use of the SDK. */
final class RemoteAgent {
    /** What the remote agent answered, protocol-neutral. */
    record Reply(@Nullable String taskId, @Nullable String contextId, String state, String result, String question,
                 @Nullable JsonNode data) {
    }

    private final JSONRPCTransport transport;
    private final Map<String, String> headers;

    RemoteAgent(String url, Map<String, String> headers) {
        this.transport = new JSONRPCTransport(new JdkA2AHttpClient(), null, url, List.of());
        this.headers = Map.copyOf(headers);
    }

    private ClientCallContext context() {
        return new ClientCallContext(Map.of(), headers);
    }

    Reply send(String messageId, @Nullable String taskId, @Nullable String contextId, JsonNode content) throws A2AClientException {
        return A2aProtocol.reply(transport.sendMessage(A2aProtocol.send(messageId, taskId, contextId, content), context()));
    }

    Reply get(String taskId) throws A2AClientException {
        return A2aProtocol.reply(transport.getTask(new TaskQueryParams(taskId), context()));
    }
}
