package dev.baton.model.springai;

import org.springframework.ai.anthropic.AnthropicChatModel;
import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.anthropic.api.AnthropicApi;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.retry.support.RetryTemplate;

/**
 * The Spring AI provider models of the line under test, pointed at a {@link RecordedProvider}: here
 * Spring AI 1.1, whose OpenAI and Anthropic models call the providers through Spring's RestClient
 * (a blocking call) and WebClient (streaming). No retries, so an error answer is seen once.
 */
final class Providers {
    static final String LINE = "1.1";

    private Providers() {
    }

    private static RetryTemplate once() {
        return RetryTemplate.builder().maxAttempts(1).build();
    }

    static ChatModel openAi(String serverRoot) {
        return OpenAiChatModel.builder()
                .openAiApi(OpenAiApi.builder().baseUrl(serverRoot).apiKey("test-key").build())
                .defaultOptions(OpenAiChatOptions.builder().model("gpt-4o-mini").build())
                .retryTemplate(once())
                .build();
    }

    static ChatModel anthropic(String serverRoot) {
        return AnthropicChatModel.builder()
                .anthropicApi(AnthropicApi.builder().baseUrl(serverRoot).apiKey("test-key").build())
                .defaultOptions(AnthropicChatOptions.builder().model("claude-sonnet-4-5").maxTokens(1024).build())
                .retryTemplate(once())
                .build();
    }
}
