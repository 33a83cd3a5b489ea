package dev.baton.tool;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.baton.internal.shaded.victools.jsonschema.generator.FieldScope;
import dev.baton.internal.shaded.victools.jsonschema.generator.OptionPreset;
import dev.baton.internal.shaded.victools.jsonschema.generator.SchemaGenerator;
import dev.baton.internal.shaded.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import dev.baton.internal.shaded.victools.jsonschema.generator.SchemaVersion;
import dev.baton.internal.shaded.victools.jsonschema.module.jackson.JacksonModule;
import dev.baton.internal.shaded.victools.jsonschema.module.jackson.JacksonOption;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A tool's input declared as a Java type: the JSON schema the model sees is generated from the
 * type (victools {@code jsonschema-generator} with its Jackson module), and a call's arguments
 * are checked against that schema and bound to the type before the tool runs.
 *
 * <p>Rules of the schema: every field (record component) is required unless its type is an
 * {@code Optional} or it is annotated {@code @Nullable} (any annotation of that simple name);
 * Jackson annotations rename ({@code @JsonProperty}), describe ({@code @JsonPropertyDescription},
 * {@code @JsonClassDescription}) and hide ({@code @JsonIgnore}) fields as they do for binding.
 *
 * <p>Checks, in order: the arguments are an object; each required field is present and not null;
 * each present field has the schema's type ({@code integer}, {@code number}, {@code string},
 * {@code boolean}, {@code array}, {@code object}) and enum value, nested objects and array items
 * included; then Jackson binds the value (strictly: no string-to-number coercion), and a binding
 * error, or an exception from the type's constructor, is reported with its field path.
 */
final class TypedInput<T> {

    private static final Set<Class<?>> OPTIONALS = Set.of(Optional.class, OptionalInt.class, OptionalLong.class, OptionalDouble.class);

    /** Binds arguments strictly: what the schema says is a number must be a JSON number. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(new Jdk8Module())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();

    private static final SchemaGenerator GENERATOR = generator();

    private final String toolName;
    private final Class<T> type;
    private final ObjectNode schema;

    private TypedInput(String toolName, Class<T> type, ObjectNode schema) {
        this.toolName = toolName;
        this.type = type;
        this.schema = schema;
    }

    /** Generates the schema of {@code type}; its root must be an object. */
    static <T> TypedInput<T> of(String toolName, Class<T> type) {
        Objects.requireNonNull(type, "type");
        ObjectNode schema;
        try {
            schema = GENERATOR.generateSchema(type);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("input: cannot generate a JSON schema for " + type.getName()
                    + " (tool '" + toolName + "'): " + e.getMessage(), e);
        }
        if (!"object".equals(schema.path("type").asText())) {
            throw new IllegalArgumentException("input: tool '" + toolName + "' needs an object as input (a record or a class"
                    + " with fields), but " + type.getName() + " has the schema " + schema);
        }
        return new TypedInput<>(toolName, type, schema);
    }

    /** The generated schema, as given to the model. */
    ObjectNode schema() {
        return schema;
    }

    Class<T> type() {
        return type;
    }

    /**
     * The arguments, checked and bound.
     *
     * @throws InvalidToolInputException naming every wrong field
     */
    T bind(JsonNode args) {
        List<String> problems = new ArrayList<>();
        if (args == null || !args.isObject()) {
            problems.add("expected a JSON object, got " + describe(args));
        } else {
            check(args, schema, "", problems);
        }
        if (!problems.isEmpty()) throw new InvalidToolInputException(toolName, problems);
        try {
            return JSON.treeToValue(args, type);
        } catch (ValueInstantiationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String why = cause.getMessage() == null ? cause.toString() : cause.getMessage();
            String at = path(e);
            throw new InvalidToolInputException(toolName, List.of(at.isEmpty() ? why : field(at) + ": " + why));
        } catch (InvalidFormatException e) {
            throw new InvalidToolInputException(toolName, List.of(field(path(e)) + " has an invalid value "
                    + shorten(String.valueOf(e.getValue())) + " for " + e.getTargetType().getSimpleName()));
        } catch (JsonMappingException e) {
            String at = path(e);
            String why = firstLine(e.getOriginalMessage());
            throw new InvalidToolInputException(toolName, List.of(at.isEmpty() ? why : field(at) + ": " + why));
        } catch (Exception e) {
            throw new InvalidToolInputException(toolName, List.of(String.valueOf(e.getMessage())));
        }
    }

    /** The arguments bind without a problem. */
    boolean accepts(JsonNode args) {
        try {
            bind(args);
            return true;
        } catch (InvalidToolInputException e) {
            return false;
        }
    }

    /** Wraps the user's function: it runs only with arguments that bind. */
    ToolExecutor executor(TypedToolExecutor<? super T> function) {
        Objects.requireNonNull(function, "executor");
        return (args, ctx) -> function.execute(bind(args), ctx);
    }

    /** Approval for every valid call; invalid calls fail without bothering a human. */
    Predicate<JsonNode> approval(boolean required) {
        return args -> required && accepts(args);
    }

    /** Approval decided from the bound input; invalid calls fail without bothering a human. */
    Predicate<JsonNode> approvalOfTyped(Predicate<? super T> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return args -> {
            T value;
            try {
                value = bind(args);
            } catch (InvalidToolInputException e) {
                return false;
            }
            return predicate.test(value);
        };
    }

    /** A predicate on the raw arguments, given before {@code input(...)}; invalid calls skip it. */
    Predicate<JsonNode> approvalOfJson(Predicate<JsonNode> predicate) {
        return args -> accepts(args) && predicate.test(args);
    }

    // ---- checking against the schema ---------------------------------------------------------

    private void check(JsonNode value, JsonNode node, String path, List<String> problems) {
        JsonNode s = resolve(node);
        if (value.isNull()) return; // required-ness is checked by the enclosing object
        JsonNode type = s.get("type");
        if (type != null && !typeMatches(value, type)) {
            problems.add(field(path) + " must be " + expected(type) + ", got " + describe(value));
            return;
        }
        JsonNode values = s.get("enum");
        if (values != null && values.isArray() && !contains(values, value)) {
            problems.add(field(path) + " must be one of " + values + ", got " + describe(value));
            return;
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
                    if (present != null) check(present, p.getValue(), join(path, p.getKey()), problems);
                }
            }
        } else if (value.isArray() && s.get("items") != null) {
            for (int i = 0; i < value.size(); i++) check(value.get(i), s.get("items"), path + "[" + i + "]", problems);
        }
    }

    /** Follows {@code $ref}s into the root's {@code $defs} (victools writes those for shared and recursive types). */
    private JsonNode resolve(JsonNode node) {
        JsonNode s = node;
        for (int hops = 0; hops < 32 && s.has("$ref"); hops++) {
            String ref = s.get("$ref").asText();
            if (ref.equals("#")) {
                s = schema;
            } else if (ref.startsWith("#/$defs/")) {
                s = schema.path("$defs").path(ref.substring("#/$defs/".length()));
            } else {
                return node;
            }
        }
        return s;
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

    private static boolean contains(JsonNode values, JsonNode value) {
        for (JsonNode v : values) {
            if (v.equals(value)) return true;
            if (v.isNumber() && value.isNumber() && v.decimalValue().compareTo(value.decimalValue()) == 0) return true;
        }
        return false;
    }

    private static String expected(JsonNode type) {
        if (type.isArray()) {
            List<String> all = new ArrayList<>();
            for (JsonNode t : type) all.add(expected(t));
            return String.join(" or ", all);
        }
        return switch (type.asText()) {
            case "integer" -> "an integer";
            case "object" -> "an object";
            case "array" -> "an array";
            default -> "a " + type.asText();
        };
    }

    private static String describe(@Nullable JsonNode value) {
        if (value == null || value.isMissingNode()) return "nothing";
        if (value.isNull()) return "null";
        if (value.isObject()) return "an object";
        if (value.isArray()) return "an array";
        return shorten(value.toString());
    }

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    private static String firstLine(@Nullable String s) {
        if (s == null) return "cannot be read";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static String field(String path) {
        return "field '" + path + "'";
    }

    /** The path Jackson reports, as {@code legs[0].date}. */
    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (sb.length() > 0) sb.append('.');
                sb.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    // ---- the generator -------------------------------------------------------------------------

    private static SchemaGenerator generator() {
        SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON)
                .with(new JacksonModule(JacksonOption.RESPECT_JSONPROPERTY_REQUIRED, JacksonOption.RESPECT_JSONPROPERTY_ORDER,
                        JacksonOption.FLATTENED_ENUMS_FROM_JSONVALUE, JacksonOption.FLATTENED_ENUMS_FROM_JSONPROPERTY));
        config.without(dev.baton.internal.shaded.victools.jsonschema.generator.Option.SCHEMA_VERSION_INDICATOR);
        config.forFields().withRequiredCheck(TypedInput::isRequired);
        // declaration order (a stable sort that keeps everything in place): the model reads fields as the author wrote them
        config.forTypesInGeneral().withPropertySorter((a, b) -> 0);
        return new SchemaGenerator(config.build());
    }

    /** Required unless {@code Optional} or {@code @Nullable} (on the field, its type, or its getter). */
    private static boolean isRequired(FieldScope field) {
        if (field.isFakeContainerItemScope()) return false;
        Field raw = field.getRawMember();
        if (OPTIONALS.contains(raw.getType())) return false;
        return !(nullable(raw.getAnnotations()) || nullable(raw.getAnnotatedType().getAnnotations()));
    }

    private static boolean nullable(Annotation[] annotations) {
        for (Annotation a : annotations) {
            if (a.annotationType().getSimpleName().equals("Nullable")) return true;
        }
        return false;
    }
}
