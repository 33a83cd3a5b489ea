/**
 * Spring Boot auto-configuration of {@code baton-model-spring-ai}: a {@code LanguageModel} on the
 * application's Spring AI {@code ChatModel}, and its {@code @Tool} beans for agents
 * ({@link dev.baton.model.springai.autoconfigure.SpringAiToolBeans}). Everything here is non-null
 * unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.baton.model.springai.autoconfigure;

import org.jspecify.annotations.NullMarked;
