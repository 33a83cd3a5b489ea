package dev.baton.spring;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;

/**
 * Changes every agent that {@link BatonAgents} builds, after the starter's settings and before the
 * bean method's own: declare one as a bean to give all agents a listener, a lower
 * {@code maxSteps}, or a store other than the application's.
 *
 * <pre>{@code
 * @Bean
 * AgentCustomizer shortRuns() {
 *     return (agentId, builder) -> builder.maxSteps(4);
 * }
 * }</pre>
 *
 * Customizers run in their {@code @Order}, on the thread that builds the agent bean; one need not be
 * thread-safe unless it is shared with other code.
 */
@FunctionalInterface
public interface AgentCustomizer {

    /**
     * Adjusts the builder of one agent.
     *
     * @param agentId the agent's id, as given to {@link BatonAgents#agent(String)}
     * @param builder its builder, with the starter's settings applied
     */
    void customize(String agentId, AgentBuilder builder);
}
