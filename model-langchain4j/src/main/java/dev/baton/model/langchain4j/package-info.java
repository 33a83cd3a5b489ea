/**
 * Any LangChain4j {@code ChatModel} or {@code StreamingChatModel} as a Baton
 * {@link dev.baton.model.LanguageModel}: {@link dev.baton.model.langchain4j.LangChain4jModel}.
 * Everything here is non-null unless annotated {@code @Nullable}.
 *
 * <p>No {@code module-info}: LangChain4j's jars have no module name of their own, so this jar is
 * the automatic module {@code dev.baton.model.langchain4j} (named in its manifest).
 */
@NullMarked
package dev.baton.model.langchain4j;

import org.jspecify.annotations.NullMarked;
