package dev.baton.http;

import java.util.Map;

/**
 * The files that hold no data and need no credentials: the inbox page ({@code GET /}) with its
 * styles, script modules ({@code GET /inbox/{file}}) and icon, and the OpenAPI document. They come
 * from a fixed list loaded once from the jar ({@link StaticAsset}), never from a path. Without the
 * inbox only {@code openapi.json} is served.
 */
final class DocumentHandler {
    /** The page's policy: scripts, styles and requests only from itself, no inline script, no framing. */
    static final String PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** An SVG opened on its own is a document too: it may run nothing and load nothing. */
    static final String IMAGE_POLICY = "default-src 'none'; frame-ancestors 'none'";

    private final Map<String, StaticAsset> assets;
    private final boolean inbox;

    DocumentHandler(boolean inbox) {
        this.assets = StaticAsset.load();
        this.inbox = inbox;
    }

    /** A handler answering the file {@code name} ({@code ""}: the page). */
    Router.Handler file(String name) {
        return request -> serve(name);
    }

    /** {@code GET /inbox/{file}}: one of the page's script modules ({@link StaticAsset#MODULES}). */
    ApiResponse module(ParsedRequest request) {
        String file = request.params().get("file");
        if (file == null || !StaticAsset.MODULES.contains(file)) {
            throw Problem.notFound("GET", request.request().rawPath()).raise();
        }
        return serve("inbox/" + file);
    }

    private ApiResponse serve(String name) {
        StaticAsset a = assets.get(name.isEmpty() ? "index.html" : name);
        if (a == null || (!inbox && !name.equals("openapi.json"))) {
            throw Problem.notFound("GET", "/" + name).raise();
        }
        String type = a.contentType();
        String policy = type.startsWith("text/html") ? PAGE_POLICY : type.startsWith("image/svg+xml") ? IMAGE_POLICY : null;
        return ApiResponse.document(a.contentType(), a.bytes(), policy);
    }
}
