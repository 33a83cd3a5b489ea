package dev.baton.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * What the model sees of a {@code tools/call} result (docs/mcp.md, "What is mapped how"):
 * structured content as it is; a single text as a string; anything else as a list with one entry
 * per content item, where images, audio and binary resources are described, not sent.
 */
final class McpResults {
    private McpResults() {
    }

    /** The tool result of a successful call. */
    static JsonNode toResult(McpSchema.CallToolResult result, ObjectMapper json) {
        if (result.structuredContent() != null) return json.valueToTree(result.structuredContent());
        List<McpSchema.Content> content = result.content() == null ? List.of() : result.content();
        if (content.isEmpty()) return TextNode.valueOf("");
        if (content.size() == 1 && content.get(0) instanceof McpSchema.TextContent text) {
            return TextNode.valueOf(text.text() == null ? "" : text.text());
        }
        ArrayNode items = json.createArrayNode();
        for (McpSchema.Content c : content) items.add(item(c, json));
        return items;
    }

    /** The message the model sees for a result whose {@code isError} is true: the server's own words. */
    static String errorMessage(McpSchema.CallToolResult result, ObjectMapper json) {
        List<String> texts = new ArrayList<>();
        if (result.content() != null) {
            for (McpSchema.Content c : result.content()) {
                if (c instanceof McpSchema.TextContent t && t.text() != null && !t.text().isBlank()) texts.add(t.text());
            }
        }
        if (!texts.isEmpty()) return String.join("\n", texts);
        if (result.structuredContent() != null) return json.valueToTree(result.structuredContent()).toString();
        if (result.content() != null && !result.content().isEmpty()) {
            return "the tool failed: " + toResult(result, json);
        }
        return "the tool failed without saying why";
    }

    private static JsonNode item(McpSchema.Content c, ObjectMapper json) {
        ObjectNode n = json.createObjectNode();
        if (c instanceof McpSchema.TextContent t) {
            n.put("type", "text");
            n.put("text", t.text());
        } else if (c instanceof McpSchema.ImageContent i) {
            n.put("type", "image");
            n.put("mimeType", i.mimeType());
            n.put("description", "an image (" + i.mimeType() + ", " + bytes(i.data()) + " bytes), not shown");
        } else if (c instanceof McpSchema.AudioContent a) {
            n.put("type", "audio");
            n.put("mimeType", a.mimeType());
            n.put("description", "audio (" + a.mimeType() + ", " + bytes(a.data()) + " bytes), not included");
        } else if (c instanceof McpSchema.ResourceLink link) {
            n.put("type", "resource_link");
            n.put("uri", link.uri());
            putIfPresent(n, "name", link.name());
            putIfPresent(n, "title", link.title());
            putIfPresent(n, "description", link.description());
            putIfPresent(n, "mimeType", link.mimeType());
            if (link.size() != null) n.put("size", link.size());
        } else if (c instanceof McpSchema.EmbeddedResource r) {
            n.put("type", "resource");
            McpSchema.ResourceContents contents = r.resource();
            if (contents != null) {
                n.put("uri", contents.uri());
                putIfPresent(n, "mimeType", contents.mimeType());
                if (contents instanceof McpSchema.TextResourceContents text) {
                    n.put("text", text.text());
                } else if (contents instanceof McpSchema.BlobResourceContents blob) {
                    n.put("description", "binary content (" + bytes(blob.blob()) + " bytes), not included");
                }
            }
        } else {
            n.put("type", c.type());
            n.put("description", "content of type '" + c.type() + "', not included");
        }
        return n;
    }

    private static void putIfPresent(ObjectNode n, String field, @org.jspecify.annotations.Nullable String value) {
        if (value != null) n.put(field, value);
    }

    /** The decoded size of base64 {@code data}. */
    static long bytes(@org.jspecify.annotations.Nullable String data) {
        if (data == null) return 0;
        int padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
        return Math.max(0, (long) data.length() * 3 / 4 - padding);
    }
}
