package dev.baton.spring;

import dev.baton.agent.RunListener;
import dev.baton.store.SnapshotStore;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Baton's core beans: the {@link SnapshotStore} (from {@code baton.store.url}, else on the
 * application's {@code DataSource}, {@code MongoClient} or {@code RedisClient}, else in memory with
 * a warning, only when the application has no such client with its store module), a {@link Clock},
 * and {@link BatonAgents} to build agents with them. Each is skipped when the application declares
 * its own bean of that type. The same on Spring Boot 4.0, 4.1 and 3.5 (on 3.5 with
 * {@code baton-spring-boot3-starter}, and the start fails saying so without it).
 *
 * <p>Closing: Spring closes the store bean it made at shutdown (a store opened from
 * {@code baton.store.url} releases its pool or client; one built on the application's
 * {@code DataSource}, {@code MongoClient} or {@code RedisClient} leaves that bean open). Before
 * that, every {@code Agent} bean closes gracefully (a {@code SmartLifecycle}): it lets its tools
 * under way finish within {@code baton.agent.shutdown-grace} and hands back the runs it holds.
 */
@AutoConfiguration(afterName = {
        // Spring Boot 4
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        // Spring Boot 3.5
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.mongo.MongoAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"})
@EnableConfigurationProperties(BatonProperties.class)
@Import({BatonAutoConfiguration.Boot3WithoutItsStarter.class, StoreConfigurations.ByUrl.class,
        StoreConfigurations.OnDataSource.class, StoreConfigurations.OnMongoClient.class,
        StoreConfigurations.OnRedisClient.class, StoreConfigurations.InMemory.class})
public class BatonAutoConfiguration {

    /** A class of the Boot 3.5 starter's, present when it is on the class path. */
    static final String BOOT3_STARTER = "dev.baton.spring.boot3.Boot3HealthAutoConfiguration";

    /**
     * Stops a Spring Boot 3.5 application that has this starter without {@code baton-spring-boot3-starter}:
     * its health indicator and Tomcat settings would be missing without a word. Spring Boot 3's
     * {@code DataSourceAutoConfiguration} (in {@code spring-boot-autoconfigure}, moved in Boot 4) tells the line.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
    @ConditionalOnMissingClass(BOOT3_STARTER)
    static class Boot3WithoutItsStarter {
        Boot3WithoutItsStarter() {
            throw new BatonStartupException("This application runs on Spring Boot 3, and baton-spring-boot-starter is "
                    + "built for Spring Boot 4: on Spring Boot 3.5 it needs baton-spring-boot3-starter beside it (the "
                    + "store's health indicator and the Tomcat settings of Spring Boot 3).",
                    "Add the dependency dev.baton:baton-spring-boot3-starter (it brings baton-spring-boot-starter), or "
                            + "move the application to Spring Boot 4.", null);
        }
    }

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
