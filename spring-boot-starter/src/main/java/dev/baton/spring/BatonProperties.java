package dev.baton.spring;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Baton's settings under {@code baton.*}: where runs are stored ({@link BatonStoreProperties}), how
 * agents claim them, the metrics, the health check and the HTTP API ({@link BatonHttpProperties}).
 * Every property is optional.
 *
 * <pre>
 * baton.store.url=jdbc:postgresql://db:5432/app
 * baton.store.properties.user=app
 * baton.agent.lease-duration=2m
 * baton.agent.shutdown-grace=20s
 * baton.http.enabled=true
 * </pre>
 *
 * <p>Not thread-safe: Spring binds it once at start, and the starter reads it when it builds its
 * beans. Nothing to close.
 */
@ConfigurationProperties(prefix = "baton")
public class BatonProperties {

    @NestedConfigurationProperty
    private final BatonStoreProperties store = new BatonStoreProperties();
    private final AgentDefaults agent = new AgentDefaults();
    private final Metrics metrics = new Metrics();
    private final Health health = new Health();
    @NestedConfigurationProperty
    private final BatonHttpProperties http = new BatonHttpProperties();

    /** Creates the settings with their defaults (Spring does). */
    public BatonProperties() {
    }

    /** {@return where runs are stored ({@code baton.store.*})} */
    public BatonStoreProperties getStore() {
        return store;
    }

    /** {@return what every agent built with {@link BatonAgents} gets ({@code baton.agent.*})} */
    public AgentDefaults getAgent() {
        return agent;
    }

    /** {@return the Micrometer meters and observations ({@code baton.metrics.*})} */
    public Metrics getMetrics() {
        return metrics;
    }

    /** {@return the Actuator health check of the store ({@code baton.health.*})} */
    public Health getHealth() {
        return health;
    }

    /** {@return the HTTP API and the inbox page ({@code baton.http.*})} */
    public BatonHttpProperties getHttp() {
        return http;
    }

    /** {@code baton.agent.*}: applied by {@link BatonAgents} to every agent it builds. */
    public static class AgentDefaults {
        /** How long a claim on a run lasts without a heartbeat; the heartbeat renews it every third of that. */
        private Duration leaseDuration = Duration.ofSeconds(60);

        /** How long a claimed run waits for its stream to be read before it is given back (decision kept). */
        private Duration pickupTimeout = Duration.ofSeconds(5);

        /** How long an agent closing with the context lets its tools under way finish before it hands their runs back. */
        private Duration shutdownGrace = Duration.ofSeconds(10);

        /** The name this instance claims runs under (default: host, process id and a random suffix). */
        private @Nullable String instanceId;

        /** Judge leases by the store's clock instead of this server's (the store must have STORE_CLOCK). */
        private boolean useStoreClock;

        /** The most model calls a run may make (default 10). */
        private @Nullable Integer maxSteps;

        /** Creates the settings with their defaults (Spring does). */
        public AgentDefaults() {
        }

        /** {@return how long a claim on a run lasts without a heartbeat (default 60 s)} */
        public Duration getLeaseDuration() {
            return leaseDuration;
        }

        /** @param leaseDuration how long a claim lasts without a heartbeat ({@code baton.agent.lease-duration}) */
        public void setLeaseDuration(Duration leaseDuration) {
            this.leaseDuration = leaseDuration;
        }

        /** {@return how long a claimed run waits for its stream to be read (default 5 s)} */
        public Duration getPickupTimeout() {
            return pickupTimeout;
        }

        /** @param pickupTimeout how long a claimed run waits for its stream to be read ({@code baton.agent.pickup-timeout}) */
        public void setPickupTimeout(Duration pickupTimeout) {
            this.pickupTimeout = pickupTimeout;
        }

        /** {@return how long a closing agent lets its tools under way finish (default 10 s)} */
        public Duration getShutdownGrace() {
            return shutdownGrace;
        }

        /** @param shutdownGrace how long a closing agent lets its tools under way finish ({@code baton.agent.shutdown-grace}) */
        public void setShutdownGrace(Duration shutdownGrace) {
            this.shutdownGrace = shutdownGrace;
        }

        /** {@return the name this instance claims runs under, or null for a generated one} */
        public @Nullable String getInstanceId() {
            return instanceId;
        }

        /** @param instanceId the name this instance claims runs under ({@code baton.agent.instance-id}) */
        public void setInstanceId(@Nullable String instanceId) {
            this.instanceId = instanceId;
        }

        /** {@return whether leases are judged by the store's clock (default false)} */
        public boolean isUseStoreClock() {
            return useStoreClock;
        }

        /** @param useStoreClock whether leases are judged by the store's clock ({@code baton.agent.use-store-clock}) */
        public void setUseStoreClock(boolean useStoreClock) {
            this.useStoreClock = useStoreClock;
        }

        /** {@return the most model calls a run may make, or null for the agent's default} */
        public @Nullable Integer getMaxSteps() {
            return maxSteps;
        }

        /** @param maxSteps the most model calls a run may make ({@code baton.agent.max-steps}) */
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

        /** Creates the settings with their defaults (Spring does). */
        public Metrics() {
        }

        /** {@return whether to record Baton's meters and observations (default true)} */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether to record Baton's meters and observations ({@code baton.metrics.enabled}) */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return how often the run gauges are counted again in the store (default 30 s)} */
        public Duration getSuspendedRunsRefresh() {
            return suspendedRunsRefresh;
        }

        /** @param suspendedRunsRefresh how often the run gauges are counted again ({@code baton.metrics.suspended-runs-refresh}) */
        public void setSuspendedRunsRefresh(Duration suspendedRunsRefresh) {
            this.suspendedRunsRefresh = suspendedRunsRefresh;
        }
    }

    /** {@code baton.health.*} (switch the indicator off with {@code management.health.baton.enabled=false}). */
    public static class Health {
        /** How long the store may take to answer the health ping before the store is reported DOWN. */
        private Duration timeout = Duration.ofSeconds(3);

        /** Creates the settings with their defaults (Spring does). */
        public Health() {
        }

        /** {@return how long the store may take to answer the health ping (default 3 s)} */
        public Duration getTimeout() {
            return timeout;
        }

        /** @param timeout how long the store may take to answer the health ping ({@code baton.health.timeout}) */
        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }
}
