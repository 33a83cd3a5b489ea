package dev.baton.spring;

import com.mongodb.ConnectionString;
import com.mongodb.client.MongoClient;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.jdbc.JdbcSnapshotStore;
import dev.baton.store.jdbc.SchemaMode;
import dev.baton.store.memory.MemorySnapshotStore;
import dev.baton.store.mongo.MongoSnapshotStore;
import dev.baton.store.redis.RedisSnapshotStore;
import io.lettuce.core.RedisClient;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The ways to the {@link SnapshotStore} bean, tried in this order (imported in this order by
 * {@link BatonAutoConfiguration}); the first that applies wins, and a store bean of the
 * application wins over all of them. Closing the store (Spring does, at shutdown) releases only
 * what the store opened: never the application's DataSource, MongoClient or RedisClient.
 */
final class StoreConfigurations {
    private static final Logger LOG = LoggerFactory.getLogger(StoreConfigurations.class);

    private StoreConfigurations() {
    }

    /** {@code baton.store.url}, with {@code baton.store.properties.*}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(SnapshotStore.class)
    @ConditionalOnProperty(prefix = "baton.store", name = "url")
    static class ByUrl {
        @Bean
        SnapshotStore batonSnapshotStore(BatonProperties properties) {
            BatonStoreProperties p = properties.getStore();
            String url = p.getUrl();
            Map<String, String> props = new LinkedHashMap<>(p.getProperties());
            if (url != null && url.startsWith("jdbc:")) {
                if (p.getSchemaMode() != null) props.putIfAbsent("schemaMode", p.getSchemaMode());
                if (p.getTable() != null) props.putIfAbsent("table", p.getTable());
            }
            SnapshotStore store = SnapshotStores.open(url, props);
            LOG.info("Baton keeps runs in {} (baton.store.url)", store.describe());
            warnIfNotDurable(store);
            return store;
        }
    }

    /** The application's one {@link DataSource}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.baton.store.jdbc.JdbcSnapshotStore")
    @ConditionalOnMissingBean(SnapshotStore.class)
    @ConditionalOnSingleCandidate(DataSource.class)
    static class OnDataSource {
        @Bean
        SnapshotStore batonSnapshotStore(DataSource dataSource, BatonProperties properties) {
            BatonStoreProperties p = properties.getStore();
            JdbcSnapshotStore.Builder b = JdbcSnapshotStore.builder(dataSource);
            if (p.getSchemaMode() != null) b.schemaMode(SchemaMode.parse(p.getSchemaMode()));
            if (p.getTable() != null) b.table(p.getTable());
            SnapshotStore store = b.build();
            LOG.info("Baton keeps runs in {} on the application's DataSource", store.describe());
            return store;
        }
    }

    /** The application's one {@link MongoClient}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"dev.baton.store.mongo.MongoSnapshotStore", "com.mongodb.client.MongoClient"})
    @ConditionalOnMissingBean(SnapshotStore.class)
    @ConditionalOnSingleCandidate(MongoClient.class)
    static class OnMongoClient {
        @Bean
        SnapshotStore batonSnapshotStore(MongoClient client, BatonProperties properties, Environment env) {
            BatonStoreProperties.Mongo p = properties.getStore().getMongo();
            MongoSnapshotStore.Builder b = MongoSnapshotStore.builder(client, database(p, env));
            if (p.getCollection() != null) b.collection(p.getCollection());
            SnapshotStore store = b.build();
            LOG.info("Baton keeps runs in {} on the application's MongoClient", store.describe());
            return store;
        }

        private static String database(BatonStoreProperties.Mongo p, Environment env) {
            if (p.getDatabase() != null && !p.getDatabase().isBlank()) return p.getDatabase();
            String springDatabase = env.getProperty("spring.data.mongodb.database");
            if (springDatabase != null && !springDatabase.isBlank()) return springDatabase;
            String uri = env.getProperty("spring.data.mongodb.uri");
            if (uri != null && !uri.isBlank()) {
                String fromUri = new ConnectionString(uri).getDatabase();
                if (fromUri != null && !fromUri.isBlank()) return fromUri;
            }
            return "baton";
        }
    }

    /** The application's one Lettuce {@link RedisClient}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"dev.baton.store.redis.RedisSnapshotStore", "io.lettuce.core.RedisClient"})
    @ConditionalOnMissingBean(SnapshotStore.class)
    @ConditionalOnSingleCandidate(RedisClient.class)
    static class OnRedisClient {
        @Bean
        SnapshotStore batonSnapshotStore(RedisClient client, BatonProperties properties) {
            BatonStoreProperties.Redis p = properties.getStore().getRedis();
            RedisSnapshotStore.Builder b = RedisSnapshotStore.builder(client);
            if (p.getKeyPrefix() != null) b.keyPrefix(p.getKeyPrefix());
            if (p.getTimeout() != null) b.timeout(p.getTimeout());
            SnapshotStore store = b.build();
            LOG.info("Baton keeps runs in {} on the application's RedisClient", store.describe());
            return store;
        }
    }

    /** Nothing else: memory, with a warning. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(SnapshotStore.class)
    static class InMemory {
        @Bean
        SnapshotStore batonSnapshotStore() {
            LOG.warn("Baton keeps runs in memory: suspended runs will not survive a restart. Set baton.store.url "
                    + "(jdbc:postgresql://..., mongodb://..., redis://...) or give the application a DataSource, "
                    + "MongoClient or RedisClient bean.");
            return MemorySnapshotStore.create();
        }
    }

    private static void warnIfNotDurable(SnapshotStore store) {
        if (store instanceof MemorySnapshotStore) {
            LOG.warn("Baton keeps runs in memory ({}): suspended runs will not survive a restart.", store.describe());
        }
    }
}
