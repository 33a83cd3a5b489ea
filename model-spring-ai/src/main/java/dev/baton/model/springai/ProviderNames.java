package dev.baton.model.springai;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.ChatOptions;

/** How failures name a provider: {@code OpenAI (gpt-4o-mini)}, from the Spring AI model's class and options. */
final class ProviderNames {
    /** Spring AI's provider models, by simple class name. */
    private static final Map<String, String> KNOWN = Map.ofEntries(
            Map.entry("OpenAiChatModel", "OpenAI"),
            Map.entry("OpenAiSdkChatModel", "OpenAI"),
            Map.entry("AnthropicChatModel", "Anthropic"),
            Map.entry("OllamaChatModel", "Ollama"),
            Map.entry("AzureOpenAiChatModel", "Azure OpenAI"),
            Map.entry("BedrockProxyChatModel", "Amazon Bedrock"),
            Map.entry("GoogleGenAiChatModel", "Google GenAI"),
            Map.entry("VertexAiGeminiChatModel", "Vertex AI Gemini"),
            Map.entry("MistralAiChatModel", "Mistral AI"),
            Map.entry("DeepSeekChatModel", "DeepSeek"),
            Map.entry("MiniMaxChatModel", "MiniMax"),
            Map.entry("ZhiPuAiChatModel", "ZhiPu AI"));

    private ProviderNames() {
    }

    static String describe(ChatModel model) {
        String name = name(model.getClass().getSimpleName());
        String modelName = null;
        try {
            ChatOptions options = SpringAiLine.modelOptions(model);
            modelName = options == null ? null : options.getModel();
        } catch (RuntimeException e) {
            // a model whose options cannot be read is still named by its class
        }
        return describe(name, modelName);
    }

    static String describe(String name, @Nullable String modelName) {
        return modelName == null || modelName.isBlank() ? name : name + " (" + modelName + ")";
    }

    static String name(String simpleClassName) {
        String known = KNOWN.get(simpleClassName);
        if (known != null) return known;
        if (simpleClassName.endsWith("ChatModel") && simpleClassName.length() > "ChatModel".length()) {
            return simpleClassName.substring(0, simpleClassName.length() - "ChatModel".length());
        }
        return "The model provider";
    }
}
