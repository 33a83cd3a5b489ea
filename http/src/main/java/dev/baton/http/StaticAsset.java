package dev.baton.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A file the API serves as is, loaded once from this jar: the inbox page, its styles, its script
 * modules, its icon, and the OpenAPI document. Only these names are served, so no request path ever reaches
 * the class path or the file system.
 */
record StaticAsset(String name, String contentType, byte[] bytes) {
    /** The inbox's modules below {@code inbox/}, imported by {@code inbox.js} ({@code openapi.json} lists them). */
    static final List<String> MODULES = List.of("activity.js", "api.js", "cards.js", "dom.js", "edit.js", "filters.js",
            "history.js", "live.js", "runs.js", "status.js", "time.js");

    static final String JAVASCRIPT = "text/javascript; charset=utf-8";

    static Map<String, StaticAsset> load() {
        Map<String, StaticAsset> m = new LinkedHashMap<>();
        put(m, "index.html", "inbox.html", "text/html; charset=utf-8");
        put(m, "inbox.css", "inbox.css", "text/css; charset=utf-8");
        put(m, "inbox.js", "inbox.js", JAVASCRIPT);
        for (String module : MODULES) put(m, "inbox/" + module, "inbox/" + module, JAVASCRIPT);
        put(m, "favicon.svg", "favicon.svg", "image/svg+xml");
        put(m, "openapi.json", "openapi.json", "application/json");
        return Map.copyOf(m);
    }

    private static void put(Map<String, StaticAsset> m, String name, String resource, String contentType) {
        try (InputStream in = StaticAsset.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("baton-http is missing its resource " + resource);
            m.put(name, new StaticAsset(name, contentType, in.readAllBytes()));
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource + " from baton-http", e);
        }
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }
}
