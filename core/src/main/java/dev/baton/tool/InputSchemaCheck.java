package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks arguments against a tool's JSON input schema, for arguments a person edited before
 * approving: {@code type}, {@code enum}, {@code required}, {@code properties},
 * {@code additionalProperties: false}, {@code items}, {@code minimum} / {@code maximum},
 * {@code minLength} / {@code maxLength}, following local {@code $ref}s ({@code #/$defs/...},
 * {@code #/definitions/...}). Every problem names the field and the rule. Not API.
 */
final class InputSchemaCheck {
    private InputSchemaCheck() {
    }

    static void check(String toolName, JsonNode schema, JsonNode args) {
        check("arguments", toolName, schema, args);
    }

    /** Checks {@code args}, which are the tool's {@code what} ("arguments", "resume data"). */
    static void check(String what, String toolName, JsonNode schema, JsonNode args) {
        List<String> problems = new ArrayList<>();
        if (args == null || !args.isObject()) {
            problems.add("expected a JSON object");
        } else {
            check(args, schema, schema, "", problems);
        }
        if (!problems.isEmpty()) throw new InvalidToolInputException(what, toolName, problems);
    }

    /** A local {@code $ref} followed (a few times at most: a ref to a ref), or the schema itself. */
    private static JsonNode resolve(JsonNode root, JsonNode s) {
        for (int i = 0; i < 8 && s.path("$ref").isTextual() && s.path("$ref").asText().startsWith("#"); i++) {
            JsonNode target = root.at(s.path("$ref").asText().substring(1));
            if (target.isMissingNode()) return s;
            s = target;
        }
        return s;
    }

    private static void check(JsonNode value, JsonNode node, JsonNode root, String path, List<String> problems) {
        if (node == null || !node.isObject()) return;
        JsonNode s = resolve(root, node);
        JsonNode type = s.get("type");
        if (type != null && !typeMatches(value, type)) {
            problems.add(field(path) + " must be of type " + type + ", got " + kind(value));
            return;
        }
        JsonNode values = s.get("enum");
        if (values != null && values.isArray()) {
            boolean found = false;
            for (JsonNode v : values) found |= v.equals(value);
            if (!found) problems.add(field(path) + " must be one of " + values + ", got " + value);
        }
        if (value.isNumber()) {
            if (s.has("minimum") && value.decimalValue().compareTo(s.get("minimum").decimalValue()) < 0) {
                problems.add(field(path) + " must be at least " + s.get("minimum") + " (minimum), got " + value);
            }
            if (s.has("maximum") && value.decimalValue().compareTo(s.get("maximum").decimalValue()) > 0) {
                problems.add(field(path) + " must be at most " + s.get("maximum") + " (maximum), got " + value);
            }
        }
        if (value.isTextual()) {
            int n = value.asText().codePointCount(0, value.asText().length());
            if (s.has("minLength") && n < s.get("minLength").asInt()) {
                problems.add(field(path) + " must have at least " + s.get("minLength") + " characters (minLength), got " + n);
            }
            if (s.has("maxLength") && n > s.get("maxLength").asInt()) {
                problems.add(field(path) + " must have at most " + s.get("maxLength") + " characters (maxLength), got " + n);
            }
        }
        if (value.isObject()) {
            JsonNode required = s.get("required");
            if (required != null) {
                for (JsonNode r : required) {
                    JsonNode present = value.get(r.asText());
                    if (present == null || present.isNull()) problems.add(field(join(path, r.asText())) + " is required");
                }
            }
            JsonNode properties = s.get("properties");
            if (properties != null) {
                for (var p : properties.properties()) {
                    JsonNode present = value.get(p.getKey());
                    if (present != null && !present.isNull()) check(present, p.getValue(), root, join(path, p.getKey()), problems);
                }
            }
            JsonNode additional = s.get("additionalProperties");
            if (additional != null && additional.isBoolean() && !additional.asBoolean()) {
                value.fieldNames().forEachRemaining(n -> {
                    if (properties == null || !properties.has(n)) {
                        problems.add(field(join(path, n)) + " is not allowed (additionalProperties: false)");
                    }
                });
            }
        } else if (value.isArray() && s.get("items") != null) {
            for (int i = 0; i < value.size(); i++) check(value.get(i), s.get("items"), root, path + "[" + i + "]", problems);
        }
    }

    private static boolean typeMatches(JsonNode value, JsonNode type) {
        if (type.isArray()) {
            for (JsonNode t : type) if (typeMatches(value, t)) return true;
            return false;
        }
        return switch (type.asText()) {
            case "integer" -> value.isIntegralNumber()
                    || value.isNumber() && value.decimalValue().stripTrailingZeros().scale() <= 0;
            case "number" -> value.isNumber();
            case "string" -> value.isTextual();
            case "boolean" -> value.isBoolean();
            case "array" -> value.isArray();
            case "object" -> value.isObject();
            case "null" -> value.isNull();
            default -> true;
        };
    }

    private static String kind(JsonNode v) {
        if (v.isIntegralNumber()) return "integer " + v;
        if (v.isNumber()) return "number " + v;
        if (v.isTextual()) return "string " + v;
        return v.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + (v.isContainerNode() ? "" : " " + v);
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static String field(String path) {
        return "field '" + path + "'";
    }
}
