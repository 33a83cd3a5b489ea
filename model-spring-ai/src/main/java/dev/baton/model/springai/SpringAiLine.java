package dev.baton.model.springai;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/**
 * What differs between the Spring AI lines this jar serves: how a request's options carry the
 * tools, and how Spring AI is kept from running them.
 *
 * <ul>
 *   <li><b>2.x</b> (Spring Boot 4): a {@code ChatModel} never runs tools itself (the internal tool
 *       loop was removed), and a provider model takes the prompt's options as they are, so they
 *       are the model's own options ({@code getOptions().mutate()}) with the tools set.</li>
 *   <li><b>1.x</b> (Spring Boot 3.5): a {@code ChatModel} runs the tools of its answer unless the
 *       options say {@code internalToolExecutionEnabled(false)}, and merges the prompt's options
 *       over its defaults, so they are a {@link ToolCallingChatOptions} with the tools and that
 *       flag (set by reflection: the method is gone from 2.x, which this jar is compiled against).</li>
 * </ul>
 * Which line is on the classpath is read once, from whether {@code ChatOptions.mutate()} exists.
 */
final class SpringAiLine {
    /** True for Spring AI 2.x (and later): {@code ChatOptions.mutate()} exists. */
    static final boolean MUTABLE_OPTIONS = hasMethod(ChatOptions.class, "mutate");

    private static final @Nullable Method INTERNAL_TOOL_EXECUTION = MUTABLE_OPTIONS ? null
            : method(ToolCallingChatOptions.Builder.class, "internalToolExecutionEnabled", Boolean.class);

    private SpringAiLine() {
    }

    /** {@return "2.x" or "1.x", for messages} */
    static String name() {
        return MUTABLE_OPTIONS ? "2.x" : "1.x";
    }

    /** {@return the model's own options (its defaults)} */
    @SuppressWarnings("removal")
    static ChatOptions modelOptions(ChatModel model) {
        return MUTABLE_OPTIONS ? model.getOptions() : model.getDefaultOptions();
    }

    /**
     * The options of one request: the model's own settings with exactly these tools, which Spring AI
     * must only describe to the model, never run.
     *
     * @throws IllegalStateException if the model's options cannot carry tools (a model without tool calling)
     */
    static ChatOptions requestOptions(ChatModel model, List<ToolCallback> tools) {
        if (MUTABLE_OPTIONS) {
            ChatOptions.Builder<?> builder = model.getOptions().mutate();
            if (builder instanceof ToolCallingChatOptions.Builder<?> withTools) {
                withTools.toolCallbacks(tools);
            } else if (!tools.isEmpty()) {
                throw new IllegalStateException(model.getClass().getName() + "'s options (" + builder.getClass().getName()
                        + ") cannot carry tools: the model does not support tool calling");
            }
            return builder.build();
        }
        ToolCallingChatOptions.Builder<?> builder = ToolCallingChatOptions.builder().toolCallbacks(tools);
        try {
            Objects.requireNonNull(INTERNAL_TOOL_EXECUTION).invoke(builder, Boolean.FALSE);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot switch off Spring AI 1.x's own tool execution", e);
        }
        return builder.build();
    }

    private static boolean hasMethod(Class<?> type, String name) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == 0) return true;
        }
        return false;
    }

    private static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("Spring AI " + name() + " without " + type.getName() + "." + name
                    + "(...): this Spring AI version is not supported (2.x and 1.1 are)", e);
        }
    }
}
