package dev.baton.model.springai;

import java.time.Duration;
import org.springframework.ai.anthropic.AnthropicChatModel;
import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/**
 * The Spring AI provider models of the line under test, pointed at a {@link RecordedProvider}: here
 * Spring AI 2.x, whose OpenAI and Anthropic models run on the providers' own Java SDKs (OkHttp).
 * model-spring-ai-1.1 has its own copy of this class for Spring AI 1.1 (Spring's RestClient and
 * WebClient); every other test class is shared. No retries, so an error answer is seen once.
 */
final class Providers {
    static final String LINE = "2.x";

    private Providers() {
    }

    static ChatModel openAi(String serverRoot) {
        return OpenAiChatModel.builder()
                .options(OpenAiChatOptions.builder().baseUrl(serverRoot + "/v1").apiKey("test-key").model("gpt-4o-mini")
                        .maxRetries(0).timeout(Duration.ofSeconds(10)).build())
                .build();
    }

    static ChatModel anthropic(String serverRoot) {
        return AnthropicChatModel.builder()
                .options(AnthropicChatOptions.builder().baseUrl(serverRoot).apiKey("test-key").model("claude-sonnet-4-5")
                        .maxTokens(1024).maxRetries(0).timeout(Duration.ofSeconds(10)).build())
                .build();
    }
}
