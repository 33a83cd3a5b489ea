package dev.baton.model.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.model.LanguageModel;
import dev.baton.model.ModelChunk;
import dev.baton.model.springai.autoconfigure.BatonSpringAiAutoConfiguration;
import dev.baton.model.springai.autoconfigure.SpringAiToolBeans;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configuration in a Spring Boot application context ({@code ApplicationContextRunner},
 * on the Boot line of the build): the {@code LanguageModel} appears only beside one Spring AI
 * {@code ChatModel} and no model of the application's own, streams unless told otherwise, and the
 * application's {@code @Tool} and {@code ToolCallback} beans are at hand.
 */
class AutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonSpringAiAutoConfiguration.class));

    /** A Spring AI model that is never called here. */
    static ChatModel chatModel() {
        return new ChatModel() {
            @Override
            public ChatResponse call(Prompt prompt) {
                throw new UnsupportedOperationException();
            }
        };
    }

    @Configuration(proxyBeanMethods = false)
    static class OneChatModel {
        @Bean
        ChatModel openAi() {
            return chatModel();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoChatModels {
        @Bean
        ChatModel openAi() {
            return chatModel();
        }

        @Bean
        ChatModel anthropic() {
            return chatModel();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnModel {
        @Bean
        LanguageModel myModel() {
            return request -> Stream.of(new ModelChunk.TextDelta("mine"));
        }
    }

    static class Weather {
        @Tool(description = "Current weather")
        String weather(String city) {
            return "sunny in " + city;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ToolBeans {
        @Bean
        Weather weather() {
            return new Weather();
        }

        @Bean
        ToolCallback clock() {
            return new ToolCallback() {
                @Override
                public ToolDefinition getToolDefinition() {
                    return ToolDefinition.builder().name("clock").description("The time").inputSchema("{\"type\":\"object\"}").build();
                }

                @Override
                public String call(String toolInput) {
                    return "noon";
                }
            };
        }
    }

    @Test
    void registeredForSpringBootToFind() {
        assertThat(org.springframework.boot.context.annotation.ImportCandidates
                .load(org.springframework.boot.autoconfigure.AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
                .contains(BatonSpringAiAutoConfiguration.class.getName());
    }

    @Test
    void aLanguageModelOnTheApplicationsChatModel_streamingByDefault() {
        runner.withUserConfiguration(OneChatModel.class).run(context -> {
            assertThat(context).hasSingleBean(LanguageModel.class);
            SpringAiModel model = context.getBean(SpringAiModel.class);
            assertThat(model.isStreaming()).isTrue();
            assertThat(model.chatModel()).isSameAs(context.getBean(ChatModel.class));
        });
    }

    @Test
    void streamingCanBeSwitchedOff() {
        runner.withUserConfiguration(OneChatModel.class).withPropertyValues("baton.spring-ai.streaming=false")
                .run(context -> assertThat(context.getBean(SpringAiModel.class).isStreaming()).isFalse());
    }

    @Test
    void theApplicationsOwnLanguageModelWins() {
        runner.withUserConfiguration(OneChatModel.class, OwnModel.class).run(context -> {
            assertThat(context).hasSingleBean(LanguageModel.class);
            assertThat(context).doesNotHaveBean(SpringAiModel.class);
        });
    }

    @Test
    void noChatModelOrTwoOfThem_noLanguageModel() {
        runner.run(context -> assertThat(context).doesNotHaveBean(LanguageModel.class));
        runner.withUserConfiguration(TwoChatModels.class).run(context -> assertThat(context).doesNotHaveBean(LanguageModel.class));
    }

    @Test
    void theApplicationsToolBeansAreAtHand() {
        runner.withUserConfiguration(ToolBeans.class).run(context -> {
            SpringAiToolBeans tools = context.getBean(SpringAiToolBeans.class);
            assertThat(tools.annotated().toolNames()).containsExactly("weather");
            assertThat(tools.callbacks().toolNames()).containsExactly("clock");
            assertThat(tools.beans("weather", "clock").requireApproval("weather").build())
                    .extracting(dev.baton.tool.Tool::name).containsExactly("weather", "clock");
        });
    }
}
