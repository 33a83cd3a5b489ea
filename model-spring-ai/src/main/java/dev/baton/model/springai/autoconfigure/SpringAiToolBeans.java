package dev.baton.model.springai.autoconfigure;

import dev.baton.model.springai.SpringAiTools;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The application's Spring AI tools, as {@link SpringAiTools} builders for its agent beans; a bean
 * of the auto-configuration ({@link BatonSpringAiAutoConfiguration}):
 *
 * <pre>{@code
 * @Bean
 * Agent support(LanguageModel model, SpringAiToolBeans springAiTools) {
 *     return Agent.builder("support").model(model)
 *         .tools(springAiTools.annotated().requireApproval("refund").build())   // every @Tool bean
 *         .build();
 * }
 * }</pre>
 *
 * <p>{@link #annotated()} is every bean with Spring AI {@code @Tool} methods; {@link #callbacks()}
 * every {@code ToolCallback} and {@code ToolCallbackProvider} bean (Spring AI's way of declaring
 * tools as beans, and the MCP client's tools); {@link #beans(String...)} the named beans only.
 * Beans are looked up when a method is called (from an agent's {@code @Bean} method, say), not
 * before. Tool names must be unique in one builder: a tool declared both ways (a {@code @Tool}
 * bean and a {@code ToolCallbackProvider} bean wrapping it) is in both lists, so take one of them.
 *
 * <p>Thread-safe; each call returns a new builder.
 */
public final class SpringAiToolBeans {
    private final ListableBeanFactory beanFactory;

    /**
     * Tools looked up in {@code beanFactory}.
     *
     * @param beanFactory the application's bean factory
     */
    public SpringAiToolBeans(ListableBeanFactory beanFactory) {
        this.beanFactory = Objects.requireNonNull(beanFactory, "beanFactory");
    }

    /** {@return the tools of every bean with Spring AI {@code @Tool} methods, in bean definition order} */
    public SpringAiTools.Builder annotated() {
        List<Object> beans = new ArrayList<>();
        for (String name : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = beanFactory.getType(name, false);
            if (type == null || ToolCallback.class.isAssignableFrom(type) || ToolCallbackProvider.class.isAssignableFrom(type)) continue;
            if (hasToolMethods(ClassUtils.getUserClass(type))) beans.add(beanFactory.getBean(name));
        }
        return SpringAiTools.from(beans);
    }

    /** {@return the tools of every {@code ToolCallback} and {@code ToolCallbackProvider} bean} */
    public SpringAiTools.Builder callbacks() {
        List<Object> sources = new ArrayList<>(beanFactory.getBeansOfType(ToolCallback.class).values());
        sources.addAll(beanFactory.getBeansOfType(ToolCallbackProvider.class).values());
        return SpringAiTools.from(sources);
    }

    /**
     * The tools of these beans: {@code @Tool} beans, {@code ToolCallback}s or {@code ToolCallbackProvider}s.
     *
     * @param beanNames names of beans
     * @return their tools
     * @throws org.springframework.beans.factory.NoSuchBeanDefinitionException for a name no bean has
     */
    public SpringAiTools.Builder beans(String... beanNames) {
        List<Object> beans = new ArrayList<>(beanNames.length);
        for (String name : beanNames) beans.add(beanFactory.getBean(name));
        return SpringAiTools.from(beans);
    }

    private static boolean hasToolMethods(Class<?> type) {
        if (type.getName().startsWith("org.springframework.")) return false;
        for (Method m : ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS)) {
            if (AnnotatedElementUtils.hasAnnotation(m, Tool.class)) return true;
        }
        return false;
    }
}
