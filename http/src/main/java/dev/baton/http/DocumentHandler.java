package dev.baton.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The files that hold no data and need no credentials: the inbox page ({@code GET /}) with its
 * styles, script modules ({@code GET /inbox/{file}}) and icon, and the OpenAPI document. They come
 * from a fixed list of names loaded once from this jar, never from a request's path, so no path
 * ever reaches the class path or the file system. Without the inbox only {@code openapi.json} is served.
 */
final class DocumentHandler {
    /** The inbox's modules below {@code inbox/}, imported by {@code inbox.js} ({@code openapi.json} lists them). */
    static final List<String> MODULES = List.of("activity.js", "api.js", "cards.js", "dom.js", "edit.js", "filters.js",
            "history.js", "live.js", "runs.js", "status.js", "time.js");

    /** The page's policy: scripts, styles and requests only from itself, no inline script, no framing. */
    static final String PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** An SVG opened on its own is a document too: it may run nothing and load nothing. */
    static final String IMAGE_POLICY = "default-src 'none'; frame-ancestors 'none'";

    /** The content type of each kind of file served, by its name's extension. */
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8", "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8", "svg", "image/svg+xml", "json", "application/json");

    private final Map<String, byte[]> files = new HashMap<>();
    private final boolean inbox;

    DocumentHandler(boolean inbox) {
        this.inbox = inbox;
        Stream.concat(Stream.of("inbox.html", "inbox.css", "inbox.js", "favicon.svg", "openapi.json"),
                MODULES.stream().map(m -> "inbox/" + m)).forEach(name -> files.put(name, load(name)));
    }

    /** A handler answering the file {@code name} ({@code ""}: the page). */
    Router.Handler file(String name) {
        return request -> serve(name);
    }

    /** {@code GET /inbox/{file}}: one of the page's script modules ({@link #MODULES}). */
    ApiResponse module(ParsedRequest request) {
        String file = request.params().get("file");
        if (!MODULES.contains(file)) throw Problem.notFound("GET", "/inbox/" + file).raise();
        return serve("inbox/" + file);
    }

    private ApiResponse serve(String name) {
        if (!inbox && !name.equals("openapi.json")) throw Problem.notFound("GET", "/" + name).raise();
        String file = name.isEmpty() ? "inbox.html" : name;
        String type = TYPES.get(file.substring(file.lastIndexOf('.') + 1));
        String policy = type.startsWith("text/html") ? PAGE_POLICY : type.startsWith("image/svg+xml") ? IMAGE_POLICY : null;
        return ApiResponse.document(type, files.get(file), policy);
    }

    private static byte[] load(String resource) {
        try (InputStream in = DocumentHandler.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("baton-http is missing its resource " + resource);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource + " from baton-http", e);
        }
    }
}
