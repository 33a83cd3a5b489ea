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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * The ways to the {@link SnapshotStore} bean, tried in this order (imported in this order by
 * {@link BatonAutoConfiguration}); the first that applies wins, and a store bean of the
 * application wins over all of them. Closing the store (Spring does, at shutdown) releases only
 * what the store opened: never the application's DataSource, MongoClient or RedisClient.
 *
 * <p>Never a silent fallback to memory when a store was meant: when the application has a
 * {@code DataSource}, {@code MongoClient} or {@code RedisClient} and the matching store module, and
 * the store cannot be built on it (the builder fails, or several candidates and none primary), the
 * start fails with a {@link BatonStartupException} that says why and what to do.
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
            SnapshotStore store = build("DataSource", b::build);
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
            if (p.getBuckets() != null) b.buckets(p.getBuckets());
            SnapshotStore store = build("MongoClient", b::build);
            LOG.info("Baton keeps runs in {} on the application's MongoClient", store.describe());
            return store;
        }

        /** baton.store.mongo.database, else Spring Boot's database: spring.mongodb.* on Boot 4, spring.data.mongodb.* on 3.5. */
        static String database(BatonStoreProperties.Mongo p, Environment env) {
            if (p.getDatabase() != null && !p.getDatabase().isBlank()) return p.getDatabase();
            for (String prefix : List.of("spring.mongodb.", "spring.data.mongodb.")) {
                String springDatabase = env.getProperty(prefix + "database");
                if (springDatabase != null && !springDatabase.isBlank()) return springDatabase;
                String uri = env.getProperty(prefix + "uri");
                if (uri != null && !uri.isBlank()) {
                    String fromUri = new ConnectionString(uri).getDatabase();
                    if (fromUri != null && !fromUri.isBlank()) return fromUri;
                }
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
            if (p.getBuckets() != null) b.buckets(p.getBuckets());
            SnapshotStore store = build("RedisClient", b::build);
            LOG.info("Baton keeps runs in {} on the application's RedisClient", store.describe());
            return store;
        }
    }

    /**
     * Nothing else: memory, with a warning; but only when no store was meant. An application with a
     * DataSource, MongoClient or RedisClient bean and the matching store module, on which no store was
     * built (several candidates and none primary, or a bean registered where Baton could not see it in
     * time), fails to start instead, saying why.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(SnapshotStore.class)
    static class InMemory {
        @Bean
        SnapshotStore batonSnapshotStore(ListableBeanFactory beans) {
            List<String> unused = new ArrayList<>();
            ClassLoader loader = beans instanceof ConfigurableBeanFactory f && f.getBeanClassLoader() != null
                    ? f.getBeanClassLoader() : StoreConfigurations.class.getClassLoader();
            for (Client c : Client.values()) {
                String[] names = c.beanNames(beans, loader);
                if (names.length == 0) continue;
                if (c.storePresent(loader)) throw c.notBuilt(names);
                unused.add(c.type + " (add " + c.module + " to keep Baton's runs in it)");
            }
            LOG.warn("Baton keeps runs in memory: suspended runs will not survive a restart. Set baton.store.url "
                    + "(jdbc:postgresql://..., mongodb://..., redis://...) or give the application a DataSource, "
                    + "MongoClient or RedisClient bean and the store module for it.{}",
                    unused.isEmpty() ? "" : " The application has a " + String.join(" and a ", unused) + ".");
            return MemorySnapshotStore.create();
        }
    }

    /** The application's clients a store module builds on. */
    enum Client {
        DATA_SOURCE("DataSource", "javax.sql.DataSource", "dev.baton.store.jdbc.JdbcSnapshotStore", "baton-storage-jdbc",
                "JdbcSnapshotStore.builder(dataSource).build()"),
        MONGO_CLIENT("MongoClient", "com.mongodb.client.MongoClient", "dev.baton.store.mongo.MongoSnapshotStore",
                "baton-storage-mongo", "MongoSnapshotStore.builder(client, \"database\").build()"),
        REDIS_CLIENT("RedisClient", "io.lettuce.core.RedisClient", "dev.baton.store.redis.RedisSnapshotStore",
                "baton-storage-redis", "RedisSnapshotStore.builder(client).build()");

        final String type;
        private final String className;
        private final String storeClass;
        final String module;
        private final String ownBean;

        Client(String type, String className, String storeClass, String module, String ownBean) {
            this.type = type;
            this.className = className;
            this.storeClass = storeClass;
            this.module = module;
            this.ownBean = ownBean;
        }

        boolean storePresent(ClassLoader loader) {
            return ClassUtils.isPresent(storeClass, loader) && ClassUtils.isPresent(className, loader);
        }

        String[] beanNames(ListableBeanFactory beans, ClassLoader loader) {
            if (!ClassUtils.isPresent(className, loader)) return new String[0];
            return beans.getBeanNamesForType(ClassUtils.resolveClassName(className, loader), true, false);
        }

        BatonStartupException notBuilt(String[] names) {
            String why = names.length > 1
                    ? "the application has " + names.length + " " + type + " beans " + Arrays.toString(names)
                            + " and none is primary, so Baton does not know which one to keep its runs in"
                    : "the application has the " + type + " bean '" + names[0] + "' but Baton's store was not built on it"
                            + " (it was not a single candidate when Baton's auto-configuration ran)";
            return new BatonStartupException("Baton would keep its runs in memory although a store was meant: " + why
                    + ". Runs kept in memory would not survive a restart.",
                    "Mark one " + type + " bean @Primary, or set baton.store.url, or declare a SnapshotStore bean ("
                            + ownBean + "). To keep runs in memory on purpose, set baton.store.url=memory:.", null);
        }
    }

    /** Builds the store on an application's client; a failure stops the start, saying which client and why. */
    private static SnapshotStore build(String client, Supplier<SnapshotStore> builder) {
        try {
            return builder.get();
        } catch (RuntimeException e) {
            throw new BatonStartupException("Baton could not build its store on the application's " + client + ": "
                    + e.getMessage(), "Fix the cause above (the database, its permissions, baton.store.* settings), or set "
                    + "baton.store.url to another store, or declare a SnapshotStore bean of your own. Baton does not fall "
                    + "back to memory when a store was meant: runs kept in memory would not survive a restart.", e);
        }
    }

    private static void warnIfNotDurable(SnapshotStore store) {
        if (store instanceof MemorySnapshotStore) {
            LOG.warn("Baton keeps runs in memory ({}): suspended runs will not survive a restart.", store.describe());
        }
    }
}
