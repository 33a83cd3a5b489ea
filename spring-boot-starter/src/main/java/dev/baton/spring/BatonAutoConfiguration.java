package dev.baton.spring;

import dev.baton.agent.RunListener;
import dev.baton.store.SnapshotStore;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Baton's core beans: the {@link SnapshotStore} (from {@code baton.store.url}, else on the
 * application's {@code DataSource}, {@code MongoClient} or {@code RedisClient}, else in memory with
 * a warning), a {@link Clock}, and {@link BatonAgents} to build agents with them. Each is skipped
 * when the application declares its own bean of that type.
 *
 * <p>Closing: Spring closes the store bean it made at shutdown (a store opened from
 * {@code baton.store.url} releases its pool or client; one built on the application's
 * {@code DataSource}, {@code MongoClient} or {@code RedisClient} leaves that bean open). Before
 * that, every {@code Agent} bean closes gracefully (a {@code SmartLifecycle}): it lets its tools
 * under way finish within {@code baton.agent.shutdown-grace} and hands back the runs it holds.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.mongo.MongoAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"})
@EnableConfigurationProperties(BatonProperties.class)
@Import({StoreConfigurations.ByUrl.class, StoreConfigurations.OnDataSource.class, StoreConfigurations.OnMongoClient.class,
        StoreConfigurations.OnRedisClient.class, StoreConfigurations.InMemory.class})
public class BatonAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public BatonAutoConfiguration() {
    }

    /**
     * The UTC system clock, for creation, suspension and lease times.
     *
     * @return {@link Clock#systemUTC()}
     */
    @Bean
    @ConditionalOnMissingBean
    public Clock batonClock() {
        return Clock.systemUTC();
    }

    /**
     * Builds agents on the store, with the clock, the listeners and {@code baton.agent.*}.
     *
     * @param store       the store bean
     * @param clock       the clock bean
     * @param properties  {@code baton.*}
     * @param listeners   every {@link RunListener} bean
     * @param customizers every {@link AgentCustomizer} bean
     * @return the builder source
     */
    @Bean
    @ConditionalOnMissingBean
    public BatonAgents batonAgents(SnapshotStore store, Clock clock, BatonProperties properties,
                                   ObjectProvider<RunListener> listeners, ObjectProvider<AgentCustomizer> customizers) {
        return new BatonAgents(store, clock, properties.getAgent(), listeners, customizers);
    }

    /**
     * Closes every {@link dev.baton.agent.Agent} bean gracefully when the context closes, before the
     * web server drains (rule R12): tools under way finish within {@code baton.agent.shutdown-grace},
     * and every run still held is handed back for another instance.
     *
     * @param agents every agent bean
     * @return the lifecycle
     */
    @Bean
    SmartLifecycle batonAgentShutdown(ObjectProvider<dev.baton.agent.Agent> agents) {
        return new AgentShutdownLifecycle(agents);
    }
}
