package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.zaxxer.hikari.HikariDataSource;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunListener;
import dev.baton.agent.RunOutcome;
import dev.baton.store.SnapshotStore;
import dev.baton.store.jdbc.JdbcSnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import dev.baton.store.mongo.MongoSnapshotStore;
import dev.baton.store.redis.RedisSnapshotStore;
import io.lettuce.core.RedisClient;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Every way to the SnapshotStore bean, and what BatonAgents gives the agents it builds. */
@ExtendWith(OutputCaptureExtension.class)
class StoreAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class));

    private static String h2Url() {
        return "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    }

    private static HikariDataSource h2DataSource() {
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl(h2Url());
        return ds;
    }

    /** An agent on the context's BatonAgents suspends, and a second agent with the same id finds the run. */
    private static void runsSurviveAcrossAgents(BatonAgents baton) {
        String id = "store-test-" + UUID.randomUUID();
        Agent first = TestAgents.concierge(baton, id);
        AgentResult r = TestAgents.suspendedRun(first, "alice");
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        Agent second = TestAgents.concierge(baton, id);
        assertThat(second.listSuspendedRuns().runs()).extracting(run -> run.runId()).containsExactly(r.runId());
        assertThat(second.approveToolCall(r.runId(), second.listSuspendedRuns().runs().get(0).toolCalls().get(0).toolCallId())
                .result().outcome()).isEqualTo(RunOutcome.COMPLETED);
    }

    @Nested
    class ByUrl {
        @Test
        void theUrlOpensTheStoreWithItsProperties() {
            runner.withPropertyValues("baton.store.url=" + h2Url(), "baton.store.table=spring_runs",
                            "baton.store.schema-mode=create", "baton.store.properties.poolSize=2")
                    .run(ctx -> {
                        assertThat(ctx).hasSingleBean(SnapshotStore.class);
                        JdbcSnapshotStore store = (JdbcSnapshotStore) ctx.getBean(SnapshotStore.class);
                        assertThat(store.table()).isEqualTo("spring_runs");
                        runsSurviveAcrossAgents(ctx.getBean(BatonAgents.class));
                    });
        }

        @Test
        void theUrlWinsOverTheApplicationsDataSource() {
            try (HikariDataSource ds = h2DataSource()) {
                runner.withBean(DataSource.class, () -> ds)
                        .withPropertyValues("baton.store.url=memory:")
                        .run(ctx -> assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(MemorySnapshotStore.class));
            }
        }

        @Test
        void aUrlNoModuleAcceptsFailsTheStartWithTheProvidersFound() {
            runner.withPropertyValues("baton.store.url=cassandra://localhost").run(ctx -> assertThat(rootMessage(ctx.getStartupFailure()))
                    .contains("No SnapshotStoreProvider accepts 'cassandra://localhost'").contains("Providers found"));
        }

        @Test
        void anInvalidSchemaModeFailsTheStartNamingIt() {
            runner.withPropertyValues("baton.store.url=" + h2Url(), "baton.store.schema-mode=sometimes")
                    .run(ctx -> assertThat(messages(ctx.getStartupFailure())).contains("schemaMode: expected create, validate or none, was 'sometimes'"));
        }
    }

    @Nested
    class OnTheApplicationsClients {
        @Test
        void aDataSourceBeanGetsAJdbcStoreThatNeverClosesIt() throws Exception {
            try (HikariDataSource ds = h2DataSource()) {
                runner.withBean("appDataSource", DataSource.class, () -> ds, notClosedBySpring()).withPropertyValues("baton.store.table=app_runs")
                        .run(ctx -> {
                            assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(JdbcSnapshotStore.class);
                            assertThat(((JdbcSnapshotStore) ctx.getBean(SnapshotStore.class)).table()).isEqualTo("app_runs");
                            runsSurviveAcrossAgents(ctx.getBean(BatonAgents.class));
                        });
                assertThat(ds.isClosed()).as("the application's DataSource after the context closed").isFalse();
                try (var c = ds.getConnection(); var rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM app_runs")) {
                    assertThat(rs.next()).isTrue();
                }
            }
        }

        @Test
        void schemaModeValidateRefusesAMissingTable() {
            try (HikariDataSource ds = h2DataSource()) {
                runner.withBean(DataSource.class, () -> ds).withPropertyValues("baton.store.schema-mode=validate")
                        .run(ctx -> assertThat(ctx).hasFailed());
            }
        }

        @Test
        void aMongoClientBeanGetsAMongoStoreThatNeverClosesIt() {
            MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort());
            try (client) {
                runner.withBean("appMongo", MongoClient.class, () -> client, notClosedBySpring())
                        .withPropertyValues("baton.store.mongo.database=spring", "baton.store.mongo.collection=spring_runs")
                        .run(ctx -> {
                            assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(MongoSnapshotStore.class);
                            runsSurviveAcrossAgents(ctx.getBean(BatonAgents.class));
                        });
                assertThat(client.getDatabase("spring").listCollectionNames().into(new java.util.ArrayList<>()))
                        .as("the client still works after the context closed").contains("spring_runs");
            }
        }

        @Test
        void theMongoDatabaseDefaultsToSpringDataMongodbDatabase() {
            MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort());
            try (client) {
                runner.withBean("appMongo", MongoClient.class, () -> client, notClosedBySpring())
                        .withPropertyValues("spring.data.mongodb.database=fromspring")
                        .run(ctx -> runsSurviveAcrossAgents(ctx.getBean(BatonAgents.class)));
                assertThat(client.getDatabase("fromspring").listCollectionNames().into(new java.util.ArrayList<>()))
                        .contains(MongoSnapshotStore.DEFAULT_COLLECTION);
            }
        }

        @Test
        void aRedisClientBeanGetsARedisStoreThatNeverClosesIt() {
            String url = System.getenv("BATON_TEST_REDIS_URL");
            assumeTrue(url != null && !url.isBlank(), "BATON_TEST_REDIS_URL names no Redis server");
            RedisClient client = RedisClient.create(url);
            try {
                String prefix = "spring-" + UUID.randomUUID();
                runner.withBean("appRedis", RedisClient.class, () -> client, notClosedBySpring()).withPropertyValues("baton.store.redis.key-prefix=" + prefix)
                        .run(ctx -> {
                            assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(RedisSnapshotStore.class);
                            runsSurviveAcrossAgents(ctx.getBean(BatonAgents.class));
                        });
                try (var connection = client.connect()) {
                    assertThat(connection.sync().ping()).as("the client still works after the context closed").isEqualTo("PONG");
                }
            } finally {
                client.shutdown();
            }
        }

        @Test
        void aDataSourceWinsOverAMongoClient() {
            MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort());
            try (client; HikariDataSource ds = h2DataSource()) {
                runner.withBean(MongoClient.class, () -> client).withBean(DataSource.class, () -> ds)
                        .run(ctx -> assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(JdbcSnapshotStore.class));
            }
        }
    }

    @Nested
    class WithNothingConfigured {
        @Test
        void runsAreKeptInMemoryWithAWarningThatTheyWillNotSurviveARestart(CapturedOutput output) {
            runner.run(ctx -> {
                assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(MemorySnapshotStore.class);
                runsSurviveAcrossAgents(ctx.getBean(BatonAgents.class));
            });
            assertThat(output).contains("WARN").contains("will not survive a restart");
        }
    }

    @Nested
    class TheApplicationsBeansWin {
        @Test
        void itsOwnStoreEvenWithAUrl() {
            SnapshotStore own = MemorySnapshotStore.create();
            runner.withBean(SnapshotStore.class, () -> own).withPropertyValues("baton.store.url=" + h2Url())
                    .run(ctx -> {
                        assertThat(ctx).hasSingleBean(SnapshotStore.class);
                        assertThat(ctx.getBean(SnapshotStore.class)).isSameAs(own);
                        assertThat(ctx.getBean(BatonAgents.class).store()).isSameAs(own);
                    });
        }

        @Test
        void itsOwnClockAndBatonAgents() {
            var none = new org.springframework.beans.factory.support.DefaultListableBeanFactory();
            Clock fixed = Clock.fixed(Instant.parse("2026-06-01T10:00:00Z"), ZoneOffset.UTC);
            runner.withBean(Clock.class, () -> fixed).run(ctx -> {
                assertThat(ctx.getBean(Clock.class)).isSameAs(fixed);
                Agent agent = TestAgents.concierge(ctx.getBean(BatonAgents.class), "clock-test");
                assertThat(agent.clock()).isSameAs(fixed);
            });
            runner.withBean("mine", BatonAgents.class, () -> new BatonAgents(MemorySnapshotStore.create(), Clock.systemUTC(),
                            new BatonProperties.AgentDefaults(), none.getBeanProvider(RunListener.class),
                            none.getBeanProvider(AgentCustomizer.class)))
                    .run(ctx -> assertThat(ctx).hasSingleBean(BatonAgents.class).hasBean("mine"));
        }
    }

    @Nested
    class AgentSettings {
        @Test
        void leaseInstanceIdPickupAndStepsComeFromProperties() {
            runner.withPropertyValues("baton.agent.lease-duration=2m", "baton.agent.instance-id=web-1",
                    "baton.agent.pickup-timeout=7s", "baton.agent.max-steps=4").run(ctx -> {
                        Agent agent = TestAgents.concierge(ctx.getBean(BatonAgents.class), "settings-test");
                        assertThat(agent.leaseDuration()).isEqualTo(Duration.ofMinutes(2));
                        assertThat(agent.instanceId()).isEqualTo("web-1");
                        assertThat(agent.pickupTimeout()).isEqualTo(Duration.ofSeconds(7));
                        assertThat(agent.maxSteps()).isEqualTo(4);
                    });
        }

        @Test
        void useStoreClockJudgesLeasesByTheStoresClock() {
            runner.withPropertyValues("baton.agent.use-store-clock=true").run(ctx -> {
                Agent agent = TestAgents.concierge(ctx.getBean(BatonAgents.class), "store-clock-test");
                assertThat(agent.clock()).isNotSameAs(ctx.getBean(Clock.class));
                assertThat(agent.clock().getClass().getName()).contains("StoreClock");
            });
        }

        @Test
        void everyRunListenerBeanAndCustomizerReachesTheAgents() {
            List<String> seen = new CopyOnWriteArrayList<>();
            RunListener listener = new RunListener() {
                @Override
                public void runStarted(RunContext run) {
                    seen.add("started " + run.agentId());
                }
            };
            runner.withBean(RunListener.class, () -> listener)
                    .withBean(AgentCustomizer.class, () -> (id, builder) -> builder.maxSteps(3))
                    .run(ctx -> {
                        Agent agent = TestAgents.concierge(ctx.getBean(BatonAgents.class), "listener-test");
                        assertThat(agent.maxSteps()).isEqualTo(3);
                        agent.generate("What is the weather?");
                        assertThat(seen).containsExactly("started listener-test");
                    });
        }
    }

    @Test
    void theIdeMetadataListsTheProperties() throws Exception {
        try (var in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            String json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(json).contains("\"baton.store.url\"", "\"baton.store.schema-mode\"", "\"baton.agent.lease-duration\"",
                    "\"baton.agent.instance-id\"", "\"baton.http.enabled\"", "\"baton.metrics.suspended-runs-refresh\"");
            assertThat(json).contains("\"validate\"");
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private static MongoServer mongo;

    @BeforeAll
    static void startMongo() {
        mongo = new MongoServer(new MemoryBackend());
        mongo.bind(new InetSocketAddress("127.0.0.1", 0));
    }

    @AfterAll
    static void stopMongo() {
        mongo.shutdownNow();
    }

    /** The test closes the client itself: Spring's own closing of a bean it registered is not what is checked here. */
    static org.springframework.beans.factory.config.BeanDefinitionCustomizer notClosedBySpring() {
        return bd -> bd.setDestroyMethodName("");
    }

    static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) all.append(c.getMessage()).append('\n');
        return all.toString();
    }

    static String rootMessage(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null) r = r.getCause();
        return r.getMessage();
    }

}
