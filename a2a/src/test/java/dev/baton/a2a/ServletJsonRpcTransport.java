package dev.baton.a2a;

import io.a2a.server.TransportMetadata;

/** Tells the SDK's card validator that {@link SdkServer}'s servlet serves the JSON-RPC transport (as its reference server module does). */
public final class ServletJsonRpcTransport implements TransportMetadata {
    @Override
    public String getTransportProtocol() {
        return "JSONRPC";
    }
}
