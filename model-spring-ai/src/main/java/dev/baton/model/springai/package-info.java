/**
 * Spring AI behind Baton: any Spring AI {@code ChatModel} as a Baton
 * {@link dev.baton.model.LanguageModel} ({@link dev.baton.model.springai.SpringAiModel}), and Spring
 * AI {@code @Tool} methods and {@code ToolCallback}s as Baton tools whose calls can wait for approval
 * ({@link dev.baton.model.springai.SpringAiTools}). Works on Spring AI 2.x (Spring Boot 4) and 1.1
 * (Spring Boot 3.5). Everything here is non-null unless annotated {@code @Nullable}.
 *
 * <p>No {@code module-info}: Spring AI's jars have no module name of their own, so this jar is the
 * automatic module {@code dev.baton.model.springai} (named in its manifest).
 */
@NullMarked
package dev.baton.model.springai;

import org.jspecify.annotations.NullMarked;
