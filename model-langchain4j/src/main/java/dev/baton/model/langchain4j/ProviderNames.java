package dev.baton.model.langchain4j;

import dev.langchain4j.model.ModelProvider;
import org.jspecify.annotations.Nullable;

/** How failures name a provider: {@code OpenAI (gpt-4o-mini)}. */
final class ProviderNames {
    private ProviderNames() {
    }

    static String describe(@Nullable ModelProvider provider, @Nullable String modelName) {
        String name = name(provider);
        return modelName == null || modelName.isBlank() ? name : name + " (" + modelName + ")";
    }

    static String name(@Nullable ModelProvider provider) {
        if (provider == null) return "The model provider";
        return switch (provider.name()) {
            case "OPEN_AI" -> "OpenAI";
            case "ANTHROPIC" -> "Anthropic";
            case "AZURE_OPEN_AI" -> "Azure OpenAI";
            case "AMAZON_BEDROCK" -> "Amazon Bedrock";
            case "GITHUB_MODELS" -> "GitHub Models";
            case "GOOGLE_AI_GEMINI" -> "Google AI Gemini";
            case "GOOGLE_GENAI" -> "Google GenAI";
            case "GOOGLE_VERTEX_AI_GEMINI" -> "Vertex AI Gemini";
            case "GOOGLE_VERTEX_AI_ANTHROPIC" -> "Vertex AI Anthropic";
            case "MICROSOFT_FOUNDRY" -> "Microsoft Foundry";
            case "MISTRAL_AI" -> "Mistral AI";
            case "OLLAMA" -> "Ollama";
            case "WATSONX" -> "watsonx";
            case "COHERE" -> "Cohere";
            case "OTHER" -> "The model provider";
            default -> provider.name();
        };
    }
}
