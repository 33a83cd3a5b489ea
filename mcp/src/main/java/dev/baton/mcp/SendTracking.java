package dev.baton.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Sees how the sending of one request ended. The SDK may report a request that never reached the
 * server (the server forgot the session and answered 404) as "session terminated", the same as a
 * request lost mid-way; only the transport's own error for that request tells them apart, and
 * only a request that certainly did not reach the server may be sent again.
 */
final class SendTracking {
    private static final String KEY = SendTracking.class.getName();

    private final CompletableFuture<@Nullable Throwable> outcome = new CompletableFuture<>();

    /** The context that makes the transport report this request's sending here. */
    Context context() {
        return Context.of(KEY, this);
    }

    /** The transport's error for the request, waiting up to {@code wait} for the sending to end; null if none. */
    @Nullable Throwable sendError(Duration wait) {
        try {
            return outcome.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * Wraps a transport so that requests sent with a tracking context report their sending, and the
     * server's instructions stay out of the SDK's log ({@link ServerInstructions}).
     */
    static McpClientTransport around(McpClientTransport delegate, String serverName) {
        return new McpClientTransport() {
            @Override
            public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
                return delegate.connect(inbound -> handler.apply(inbound.map(m -> ServerInstructions.aside(serverName, m))));
            }

            @Override
            public void setExceptionHandler(Consumer<Throwable> handler) {
                delegate.setExceptionHandler(handler);
            }

            @Override
            public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
                return Mono.deferContextual(ctx -> {
                    SendTracking tracking = ctx.getOrDefault(KEY, null);
                    Mono<Void> send = delegate.sendMessage(message);
                    if (tracking == null || !(message instanceof McpSchema.JSONRPCRequest)) return send;
                    return send.doOnSuccess(v -> tracking.outcome.complete(null))
                            .doOnError(tracking.outcome::complete)
                            .doOnCancel(() -> tracking.outcome.complete(null));
                });
            }

            @Override
            public Mono<Void> closeGracefully() {
                return delegate.closeGracefully();
            }

            @Override
            public void close() {
                delegate.close();
            }

            @Override
            public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
                return delegate.unmarshalFrom(data, typeRef);
            }

            @Override
            public List<String> protocolVersions() {
                return delegate.protocolVersions();
            }
        };
    }
}
