package dev.baton.model.springai.autoconfigure;

import dev.baton.model.LanguageModel;
import dev.baton.model.springai.SpringAiModel;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Spring Boot auto-configuration of {@code baton-model-spring-ai} (Boot 4 and 3.5), beside
 * {@code baton-spring-boot-starter} or without it:
 *
 * <ul>
 *   <li>a {@link LanguageModel} bean, a {@link SpringAiModel} on the application's Spring AI
 *       {@link ChatModel}, when there is exactly one {@code ChatModel} (or one marked
 *       {@code @Primary}) and no {@code LanguageModel} bean of the application's own. It streams,
 *       unless {@code baton.spring-ai.streaming=false};</li>
 *   <li>a {@link SpringAiToolBeans} bean: the application's {@code @Tool} beans and
 *       {@code ToolCallback} / {@code ToolCallbackProvider} beans, ready to be given to an agent
 *       with approvals set.</li>
 * </ul>
 *
 * Runs after Spring AI's own model auto-configurations, so their {@code ChatModel} is seen.
 */
@AutoConfiguration(afterName = {
        "org.springframework.ai.model.openai.autoconfigure.OpenAiChatAutoConfiguration",
        "org.springframework.ai.model.openaisdk.autoconfigure.OpenAiSdkChatAutoConfiguration",
        "org.springframework.ai.model.anthropic.autoconfigure.AnthropicChatAutoConfiguration",
        "org.springframework.ai.model.ollama.autoconfigure.OllamaChatAutoConfiguration",
        "org.springframework.ai.model.azure.openai.autoconfigure.AzureOpenAiChatAutoConfiguration",
        "org.springframework.ai.model.bedrock.converse.autoconfigure.BedrockConverseProxyChatAutoConfiguration",
        "org.springframework.ai.model.google.genai.autoconfigure.chat.GoogleGenAiChatAutoConfiguration",
        "org.springframework.ai.model.vertexai.autoconfigure.gemini.VertexAiGeminiChatAutoConfiguration",
        "org.springframework.ai.model.mistralai.autoconfigure.MistralAiChatAutoConfiguration",
        "org.springframework.ai.model.deepseek.autoconfigure.DeepSeekChatAutoConfiguration"})
@ConditionalOnClass({ChatModel.class, LanguageModel.class})
public class BatonSpringAiAutoConfiguration {

    /** Made by Spring. */
    public BatonSpringAiAutoConfiguration() {
    }

    /**
     * The agents' model: the application's Spring AI model.
     *
     * @param chatModel   the application's {@code ChatModel}
     * @param environment read for {@code baton.spring-ai.streaming} (default true)
     * @return the model
     */
    @Bean
    @ConditionalOnMissingBean(LanguageModel.class)
    @ConditionalOnSingleCandidate(ChatModel.class)
    public SpringAiModel batonSpringAiModel(ChatModel chatModel, Environment environment) {
        boolean streaming = environment.getProperty("baton.spring-ai.streaming", Boolean.class, Boolean.TRUE);
        return SpringAiModel.builder(chatModel).streaming(streaming).build();
    }

    /**
     * The application's Spring AI tools, for agent beans.
     *
     * @param beanFactory where the tools are looked up, when first asked for
     * @return the tool beans
     */
    @Bean
    @ConditionalOnMissingBean
    public SpringAiToolBeans batonSpringAiToolBeans(ListableBeanFactory beanFactory) {
        return new SpringAiToolBeans(beanFactory);
    }
}
