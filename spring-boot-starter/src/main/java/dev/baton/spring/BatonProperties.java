package dev.baton.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Baton's settings under {@code baton.*}: where runs are stored, how agents claim them, the metrics,
 * the health check and the HTTP API. Every property is optional.
 *
 * <pre>
 * baton.store.url=jdbc:postgresql://db:5432/app
 * baton.store.properties.user=app
 * baton.agent.lease-duration=2m
 * baton.http.enabled=true
 * </pre>
 */
@ConfigurationProperties(prefix = "baton")
public class BatonProperties {

    private final Store store = new Store();
    private final AgentDefaults agent = new AgentDefaults();
    private final Metrics metrics = new Metrics();
    private final Health health = new Health();
    private final Http http = new Http();

    /** Where runs are stored. */
    public Store getStore() {
        return store;
    }

    /** What every agent built with {@link BatonAgents} gets. */
    public AgentDefaults getAgent() {
        return agent;
    }

    /** The Micrometer meters and observations. */
    public Metrics getMetrics() {
        return metrics;
    }

    /** The Actuator health check of the store. */
    public Health getHealth() {
        return health;
    }

    /** The HTTP API and the inbox page. */
    public Http getHttp() {
        return http;
    }

    /** {@code baton.store.*}. */
    public static class Store {
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

        public @Nullable String getUrl() {
            return url;
        }

        public void setUrl(@Nullable String url) {
            this.url = url;
        }

        public Map<String, String> getProperties() {
            return properties;
        }

        public void setProperties(Map<String, String> properties) {
            this.properties = properties;
        }

        public @Nullable String getSchemaMode() {
            return schemaMode;
        }

        public void setSchemaMode(@Nullable String schemaMode) {
            this.schemaMode = schemaMode;
        }

        public @Nullable String getTable() {
            return table;
        }

        public void setTable(@Nullable String table) {
            this.table = table;
        }

        /** The store on the application's MongoClient. */
        public Mongo getMongo() {
            return mongo;
        }

        /** The store on the application's RedisClient. */
        public Redis getRedis() {
            return redis;
        }
    }

    /** {@code baton.store.mongo.*}: used when the store is built on the application's MongoClient. */
    public static class Mongo {
        /** The database (default: spring.data.mongodb.database, else the database of spring.data.mongodb.uri, else baton). */
        private @Nullable String database;

        /** The collection (default baton_runs). */
        private @Nullable String collection;

        public @Nullable String getDatabase() {
            return database;
        }

        public void setDatabase(@Nullable String database) {
            this.database = database;
        }

        public @Nullable String getCollection() {
            return collection;
        }

        public void setCollection(@Nullable String collection) {
            this.collection = collection;
        }
    }

    /** {@code baton.store.redis.*}: used when the store is built on the application's RedisClient. */
    public static class Redis {
        /** The first part of every key (default baton). */
        private @Nullable String keyPrefix;

        /** The timeout of every command (default 10s). */
        private @Nullable Duration timeout;

        public @Nullable String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(@Nullable String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public @Nullable Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(@Nullable Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** {@code baton.agent.*}: applied by {@link BatonAgents} to every agent it builds. */
    public static class AgentDefaults {
        /** How long a claim on a run lasts without a heartbeat; the heartbeat renews it every third of that. */
        private Duration leaseDuration = Duration.ofSeconds(60);

        /** How long a claimed run waits for its stream to be read before it is given back (decision kept). */
        private Duration pickupTimeout = Duration.ofSeconds(5);

        /** The name this instance claims runs under (default: host, process id and a random suffix). */
        private @Nullable String instanceId;

        /** Judge leases by the store's clock instead of this server's (the store must have STORE_CLOCK). */
        private boolean useStoreClock;

        /** The most model calls a run may make (default 10). */
        private @Nullable Integer maxSteps;

        public Duration getLeaseDuration() {
            return leaseDuration;
        }

        public void setLeaseDuration(Duration leaseDuration) {
            this.leaseDuration = leaseDuration;
        }

        public Duration getPickupTimeout() {
            return pickupTimeout;
        }

        public void setPickupTimeout(Duration pickupTimeout) {
            this.pickupTimeout = pickupTimeout;
        }

        public @Nullable String getInstanceId() {
            return instanceId;
        }

        public void setInstanceId(@Nullable String instanceId) {
            this.instanceId = instanceId;
        }

        public boolean isUseStoreClock() {
            return useStoreClock;
        }

        public void setUseStoreClock(boolean useStoreClock) {
            this.useStoreClock = useStoreClock;
        }

        public @Nullable Integer getMaxSteps() {
            return maxSteps;
        }

        public void setMaxSteps(@Nullable Integer maxSteps) {
            this.maxSteps = maxSteps;
        }
    }

    /** {@code baton.metrics.*}. */
    public static class Metrics {
        /** Whether to record Baton's meters and observations (when Micrometer is present). */
        private boolean enabled = true;

        /** How often the baton.runs.suspended and baton.runs.resuming gauges are counted again in the store. */
        private Duration suspendedRunsRefresh = Duration.ofSeconds(30);

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getSuspendedRunsRefresh() {
            return suspendedRunsRefresh;
        }

        public void setSuspendedRunsRefresh(Duration suspendedRunsRefresh) {
            this.suspendedRunsRefresh = suspendedRunsRefresh;
        }
    }

    /** {@code baton.health.*} (switch the indicator off with {@code management.health.baton.enabled=false}). */
    public static class Health {
        /** How long the store may take to answer the health ping before the store is reported DOWN. */
        private Duration timeout = Duration.ofSeconds(3);

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** {@code baton.http.*}: the HTTP API and inbox page in Spring MVC. */
    public static class Http {
        /** Whether to serve the HTTP API and the inbox page. */
        private boolean enabled;

        /** Where the API and the page are mounted; the page is at this path with a trailing slash. */
        private String basePath = "/baton";

        /** Whether to serve the inbox page (the API is served either way). */
        private boolean inbox = true;

        /** The largest request body accepted; larger ones get 413. */
        private DataSize maxBodySize = DataSize.ofKilobytes(256);

        /**
         * Let every request in as one unrestricted principal when nothing else authenticates it. Only
         * for a server bound to loopback on a single-user machine.
         */
        private boolean anonymous;

        /**
         * Let Tomcat pass an encoded slash (%2F) in a path through to the API instead of rejecting the
         * request, so ids holding a slash can be addressed. Applies to the whole server.
         */
        private boolean allowEncodedSlash = true;

        /** Bearer tokens the API accepts ({@code Authorization: Bearer <token>}), each with its principal. */
        private List<Token> tokens = new ArrayList<>();

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getBasePath() {
            return basePath;
        }

        public void setBasePath(String basePath) {
            this.basePath = basePath;
        }

        public boolean isInbox() {
            return inbox;
        }

        public void setInbox(boolean inbox) {
            this.inbox = inbox;
        }

        public DataSize getMaxBodySize() {
            return maxBodySize;
        }

        public void setMaxBodySize(DataSize maxBodySize) {
            this.maxBodySize = maxBodySize;
        }

        public boolean isAnonymous() {
            return anonymous;
        }

        public void setAnonymous(boolean anonymous) {
            this.anonymous = anonymous;
        }

        public boolean isAllowEncodedSlash() {
            return allowEncodedSlash;
        }

        public void setAllowEncodedSlash(boolean allowEncodedSlash) {
            this.allowEncodedSlash = allowEncodedSlash;
        }

        public List<Token> getTokens() {
            return tokens;
        }

        public void setTokens(List<Token> tokens) {
            this.tokens = tokens;
        }
    }

    /** One bearer token of {@code baton.http.tokens}. */
    public static class Token {
        /** The token (at least 16 characters); take it from the environment, never from a committed file. */
        private @Nullable String token;

        /** The principal's name, shown by GET /me and in logs. */
        private @Nullable String name;

        /** The resource ids this principal may see; empty for all. */
        private Set<String> resourceIds = new LinkedHashSet<>();

        public @Nullable String getToken() {
            return token;
        }

        public void setToken(@Nullable String token) {
            this.token = token;
        }

        public @Nullable String getName() {
            return name;
        }

        public void setName(@Nullable String name) {
            this.name = name;
        }

        public Set<String> getResourceIds() {
            return resourceIds;
        }

        public void setResourceIds(Set<String> resourceIds) {
            this.resourceIds = resourceIds;
        }
    }
}
