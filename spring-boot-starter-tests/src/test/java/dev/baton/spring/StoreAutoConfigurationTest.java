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
import org.springframework.boot.test.context.FilteredClassLoader;
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
        void theMongoDatabaseDefaultsToSpringBootsMongoDatabaseProperty() {
            MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort());
            try (client) {
                // spring.mongodb.database on Spring Boot 4, spring.data.mongodb.database on 3.5
                runner.withBean("appMongo", MongoClient.class, () -> client, notClosedBySpring())
                        .withPropertyValues((BootLine.BOOT4 ? "spring.mongodb" : "spring.data.mongodb") + ".database=fromspring")
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
            String prefix = "spring-" + UUID.randomUUID();
            try {
                runner.withBean("appRedis", RedisClient.class, () -> client, notClosedBySpring()).withPropertyValues("baton.store.redis.key-prefix=" + prefix)
                        .run(ctx -> {
                            assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(RedisSnapshotStore.class);
                            runsSurviveAcrossAgents(ctx.getBean(BatonAgents.class));
                        });
                try (var connection = client.connect()) {
                    assertThat(connection.sync().ping()).as("the client still works after the context closed").isEqualTo("PONG");
                }
            } finally {
                deleteKeys(client, prefix);
                client.shutdown();
            }
        }

        @Test
        void bucketsOnTheApplicationsMongoClient() {
            MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort());
            try (client) {
                runner.withBean("appMongo", MongoClient.class, () -> client, notClosedBySpring())
                        .withPropertyValues("baton.store.mongo.database=bucketed", "baton.store.mongo.buckets=4")
                        .run(ctx -> TestAgents.suspendedRun(TestAgents.concierge(ctx.getBean(BatonAgents.class), "bucketed"), "alice"));
                var run = client.getDatabase("bucketed").getCollection(MongoSnapshotStore.DEFAULT_COLLECTION).find().first();
                assertThat(run).as("a stored run").isNotNull();
                assertThat(run.get("bucket")).as("the run's bucket, written only with buckets > 1").isNotNull();
            }
        }

        @Test
        void bucketsOnTheApplicationsRedisClient() {
            String url = System.getenv("BATON_TEST_REDIS_URL");
            assumeTrue(url != null && !url.isBlank(), "BATON_TEST_REDIS_URL names no Redis server");
            RedisClient client = RedisClient.create(url);
            String prefix = "spring-" + UUID.randomUUID();
            try {
                runner.withBean("appRedis", RedisClient.class, () -> client, notClosedBySpring())
                        .withPropertyValues("baton.store.redis.key-prefix=" + prefix, "baton.store.redis.buckets=4")
                        .run(ctx -> {
                            assertThat(ctx.getBean(SnapshotStore.class).describe()).contains("4 buckets");
                            runsSurviveAcrossAgents(ctx.getBean(BatonAgents.class));
                        });
            } finally {
                deleteKeys(client, prefix);
                client.shutdown();
            }
        }

        /** Deletes what a test's store wrote under its own key prefix (the tests share the CI's Redis database). */
        private static void deleteKeys(RedisClient client, String prefix) {
            try (var connection = client.connect()) {
                java.util.List<String> keys = connection.sync().keys(prefix + "*");
                if (!keys.isEmpty()) connection.sync().del(keys.toArray(String[]::new));
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

    /** Memory only when no store was meant: an application's client with its store module and no store built on it stops the start. */
    @Nested
    class NeverASilentFallbackToMemory {
        @Test
        void twoDataSourcesAndNonePrimaryStopTheStartSayingWhyAndWhatToDo() {
            try (HikariDataSource a = h2DataSource(); HikariDataSource b = h2DataSource()) {
                runner.withBean("ordersDataSource", DataSource.class, () -> a).withBean("reportsDataSource", DataSource.class, () -> b)
                        .run(ctx -> {
                            BatonStartupException e = startupException(ctx.getStartupFailure());
                            assertThat(e.getMessage()).contains("a store was meant", "2 DataSource beans", "ordersDataSource",
                                    "reportsDataSource", "none is primary");
                            assertThat(e.action()).contains("@Primary", "baton.store.url", "SnapshotStore bean");
                        });
            }
        }

        @Test
        void twoDataSourcesOnePrimaryGiveTheStoreOnThePrimary() {
            try (HikariDataSource a = h2DataSource(); HikariDataSource b = h2DataSource()) {
                runner.withBean("ordersDataSource", DataSource.class, () -> a, bd -> bd.setPrimary(true))
                        .withBean("reportsDataSource", DataSource.class, () -> b)
                        .run(ctx -> assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(JdbcSnapshotStore.class));
            }
        }

        @Test
        void twoMongoClientsAndNonePrimaryStopTheStart() {
            MongoClient a = MongoClients.create("mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort());
            MongoClient b = MongoClients.create("mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort());
            try (a; b) {
                runner.withBean("a", MongoClient.class, () -> a, notClosedBySpring()).withBean("b", MongoClient.class, () -> b, notClosedBySpring())
                        .run(ctx -> assertThat(startupException(ctx.getStartupFailure()).getMessage()).contains("2 MongoClient beans"));
            }
        }

        @Test
        void twoRedisClientsAndNonePrimaryStopTheStart() {
            RedisClient a = RedisClient.create("redis://127.0.0.1:1");
            RedisClient b = RedisClient.create("redis://127.0.0.1:1");
            try {
                runner.withBean("a", RedisClient.class, () -> a, notClosedBySpring()).withBean("b", RedisClient.class, () -> b, notClosedBySpring())
                        .run(ctx -> assertThat(startupException(ctx.getStartupFailure()).getMessage()).contains("2 RedisClient beans"));
            } finally {
                a.shutdown();
                b.shutdown();
            }
        }

        @Test
        void aStoreThatCannotBeBuiltOnTheApplicationsDataSourceStopsTheStartNamingTheCause() {
            try (HikariDataSource ds = h2DataSource()) {
                runner.withBean(DataSource.class, () -> ds).withPropertyValues("baton.store.schema-mode=validate")
                        .run(ctx -> {
                            BatonStartupException e = startupException(ctx.getStartupFailure());
                            assertThat(e.getMessage()).startsWith("Baton could not build its store on the application's DataSource: ")
                                    .contains("baton_runs");
                            assertThat(e.action()).contains("does not fall back to memory");
                        });
            }
        }

        @Test
        void aMongoClientWhoseServerIsGoneStopsTheStart() {
            MongoClient client = MongoClients.create("mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300&connectTimeoutMS=300");
            try (client) {
                runner.withBean("appMongo", MongoClient.class, () -> client, notClosedBySpring())
                        .run(ctx -> assertThat(startupException(ctx.getStartupFailure()).getMessage())
                                .startsWith("Baton could not build its store on the application's MongoClient: "));
            }
        }

        @Test
        void aRedisClientWhoseServerIsGoneStopsTheStart() {
            RedisClient client = RedisClient.create("redis://127.0.0.1:1");
            try {
                runner.withBean("appRedis", RedisClient.class, () -> client, notClosedBySpring())
                        .run(ctx -> assertThat(startupException(ctx.getStartupFailure()).getMessage())
                                .startsWith("Baton could not build its store on the application's RedisClient: "));
            } finally {
                client.shutdown();
            }
        }

        @Test
        void aDataSourceWithoutTheJdbcStoreModuleKeepsRunsInMemoryAndTheWarningNamesTheModule(CapturedOutput output) {
            try (HikariDataSource ds = h2DataSource()) {
                runner.withClassLoader(new FilteredClassLoader(JdbcSnapshotStore.class)).withBean(DataSource.class, () -> ds)
                        .run(ctx -> assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(MemorySnapshotStore.class));
            }
            assertThat(output).contains("will not survive a restart", "The application has a DataSource (add baton-storage-jdbc");
        }

        @Test
        void baton_store_url_memoryKeepsRunsInMemoryOnPurposeBesideADataSource() {
            try (HikariDataSource ds = h2DataSource()) {
                runner.withBean(DataSource.class, () -> ds).withPropertyValues("baton.store.url=memory:")
                        .run(ctx -> assertThat(ctx.getBean(SnapshotStore.class)).isInstanceOf(MemorySnapshotStore.class));
            }
        }

        @Test
        void springBootPrintsTheReasonAndTheActionThroughBatonsFailureAnalyzer() throws Exception {
            var registered = new java.util.ArrayList<String>();
            var factories = getClass().getClassLoader().getResources("META-INF/spring.factories");
            while (factories.hasMoreElements()) {
                try (var in = factories.nextElement().openStream()) {
                    var p = new java.util.Properties();
                    p.load(in);
                    registered.add(p.getProperty("org.springframework.boot.diagnostics.FailureAnalyzer", ""));
                }
            }
            assertThat(registered).as("the FailureAnalyzers of META-INF/spring.factories")
                    .anyMatch(names -> names.contains(BatonStartupFailureAnalyzer.class.getName()));
            try (HikariDataSource a = h2DataSource(); HikariDataSource b = h2DataSource()) {
                runner.withBean("ordersDataSource", DataSource.class, () -> a).withBean("reportsDataSource", DataSource.class, () -> b)
                        .run(ctx -> {
                            var analysis = new BatonStartupFailureAnalyzer().analyze(ctx.getStartupFailure());
                            assertThat(analysis).as("found under Spring's BeanCreationException").isNotNull();
                            assertThat(analysis.getDescription()).startsWith("Baton would keep its runs in memory although a store was meant");
                            assertThat(analysis.getAction()).startsWith("Mark one DataSource bean @Primary");
                        });
            }
        }
    }

    /** The Boot 3.5 starter's part is on the class path where it must be. */
    @Test
    void onSpringBoot3WithoutTheBoot3StarterTheStartFailsNamingIt() {
        runner.withClassLoader(new FilteredClassLoader("dev.baton.spring.boot3.")).run(ctx -> {
            if (BootLine.BOOT4) {
                assertThat(ctx).as("Spring Boot %s needs no Boot 3 starter", BootLine.version()).hasNotFailed();
            } else {
                BatonStartupException e = startupException(ctx.getStartupFailure());
                assertThat(e.getMessage()).contains("runs on Spring Boot 3", "baton-spring-boot3-starter");
                assertThat(e.action()).contains("dev.baton:baton-spring-boot3-starter");
            }
        });
    }

    static BatonStartupException startupException(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof BatonStartupException e) return e;
        }
        throw new AssertionError("no BatonStartupException in " + failure, failure);
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
