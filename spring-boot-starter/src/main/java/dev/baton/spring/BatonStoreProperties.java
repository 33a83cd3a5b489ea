package dev.baton.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code baton.store.*}: where runs are stored. Part of {@link BatonProperties}; Spring binds it.
 *
 * <p>Not thread-safe: Spring binds it once at start, and the starter reads it when it builds the store.
 */
public class BatonStoreProperties {
    /**
     * The store's URL, opened with {@code SnapshotStores.open}: {@code jdbc:postgresql://...},
     * {@code mongodb://...}, {@code redis://...}, {@code memory:}. Wins over the application's
     * DataSource, MongoClient and RedisClient beans.
     */
    private @Nullable String url;

    /** Extra properties for the store opened by URL (user, password, poolSize, keyPrefix, ...). */
    private Map<String, String> properties = new LinkedHashMap<>();

    /**
     * What the JDBC store does with its table at start: create (the default: creates what is
     * missing), validate (fails if it is missing or different) or none.
     */
    private @Nullable String schemaMode;

    /** The JDBC store's table (default baton_runs). */
    private @Nullable String table;

    private final Mongo mongo = new Mongo();
    private final Redis redis = new Redis();

    /** Creates the settings with their defaults (Spring does). */
    public BatonStoreProperties() {
    }

    /** {@return the store's URL, or null to build the store on the application's client beans} */
    public @Nullable String getUrl() {
        return url;
    }

    /** @param url the store's URL ({@code baton.store.url}) */
    public void setUrl(@Nullable String url) {
        this.url = url;
    }

    /** {@return extra properties for the store opened by URL} */
    public Map<String, String> getProperties() {
        return properties;
    }

    /** @param properties extra properties for the store opened by URL ({@code baton.store.properties.*}) */
    public void setProperties(Map<String, String> properties) {
        this.properties = properties;
    }

    /** {@return the JDBC store's schema mode ({@code create}, {@code validate}, {@code none}), or null for the default} */
    public @Nullable String getSchemaMode() {
        return schemaMode;
    }

    /** @param schemaMode {@code create}, {@code validate} or {@code none} ({@code baton.store.schema-mode}) */
    public void setSchemaMode(@Nullable String schemaMode) {
        this.schemaMode = schemaMode;
    }

    /** {@return the JDBC store's table, or null for the default} */
    public @Nullable String getTable() {
        return table;
    }

    /** @param table the JDBC store's table ({@code baton.store.table}) */
    public void setTable(@Nullable String table) {
        this.table = table;
    }

    /** {@return the store on the application's MongoClient} */
    public Mongo getMongo() {
        return mongo;
    }

    /** {@return the store on the application's RedisClient} */
    public Redis getRedis() {
        return redis;
    }

    /** {@code baton.store.mongo.*}: used when the store is built on the application's MongoClient. */
    public static class Mongo {
        /**
         * The database (default: spring.mongodb.database, else the database of spring.mongodb.uri; on Spring Boot
         * 3.5 spring.data.mongodb.database and spring.data.mongodb.uri; else baton).
         */
        private @Nullable String database;

        /** The collection (default baton_runs). */
        private @Nullable String collection;

        /**
         * How many buckets spread each agent's runs (default 1). Must be the count the data was written
         * with; see docs/stores/mongodb.md.
         */
        private @Nullable Integer buckets;

        /** Creates the settings with their defaults (Spring does). */
        public Mongo() {
        }

        /** {@return the database, or null for the default} */
        public @Nullable String getDatabase() {
            return database;
        }

        /** @param database the database ({@code baton.store.mongo.database}) */
        public void setDatabase(@Nullable String database) {
            this.database = database;
        }

        /** {@return the collection, or null for the default} */
        public @Nullable String getCollection() {
            return collection;
        }

        /** @param collection the collection ({@code baton.store.mongo.collection}) */
        public void setCollection(@Nullable String collection) {
            this.collection = collection;
        }

        /** {@return how many buckets spread each agent's runs, or null for the store's default (1)} */
        public @Nullable Integer getBuckets() {
            return buckets;
        }

        /** @param buckets how many buckets spread each agent's runs ({@code baton.store.mongo.buckets}) */
        public void setBuckets(@Nullable Integer buckets) {
            this.buckets = buckets;
        }
    }

    /** {@code baton.store.redis.*}: used when the store is built on the application's RedisClient. */
    public static class Redis {
        /** The first part of every key (default baton). */
        private @Nullable String keyPrefix;

        /** The timeout of every command (default 10s). */
        private @Nullable Duration timeout;

        /**
         * How many buckets spread each agent's runs (default 1; more for one agent's runs over a Redis
         * Cluster). Must be the count the data was written with; see docs/stores/redis-buckets.md.
         */
        private @Nullable Integer buckets;

        /** Creates the settings with their defaults (Spring does). */
        public Redis() {
        }

        /** {@return the first part of every key, or null for the default} */
        public @Nullable String getKeyPrefix() {
            return keyPrefix;
        }

        /** @param keyPrefix the first part of every key ({@code baton.store.redis.key-prefix}) */
        public void setKeyPrefix(@Nullable String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        /** {@return the timeout of every command, or null for the default} */
        public @Nullable Duration getTimeout() {
            return timeout;
        }

        /** @param timeout the timeout of every command ({@code baton.store.redis.timeout}) */
        public void setTimeout(@Nullable Duration timeout) {
            this.timeout = timeout;
        }

        /** {@return how many buckets spread each agent's runs, or null for the store's default (1)} */
        public @Nullable Integer getBuckets() {
            return buckets;
        }

        /** @param buckets how many buckets spread each agent's runs ({@code baton.store.redis.buckets}) */
        public void setBuckets(@Nullable Integer buckets) {
            this.buckets = buckets;
        }
    }
}
