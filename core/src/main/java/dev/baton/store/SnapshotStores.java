package dev.baton.store;

import dev.baton.StoreProviderException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a {@link SnapshotStore} by URL through the {@link SnapshotStoreProvider}s on the class or
 * module path.
 *
 * <pre>{@code
 * SnapshotStore store = SnapshotStores.open("jdbc:postgresql://localhost/app");
 * SnapshotStore redis = SnapshotStores.open("redis://localhost:6379", Map.of("keyPrefix", "myapp"));
 * }</pre>
 *
 * <p>Exactly one provider must accept the URL; when several do, the system property
 * {@code baton.store.provider} names the one to use. Providers that fail to load are
 * reported, not silently skipped.
 *
 * <p>Thread-safe. Every store it opens belongs to the caller, who closes it.
 */
public final class SnapshotStores {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotStores.class);

    /** System property naming the store URL an agent without an explicit store uses. */
    public static final String URL_PROPERTY = "baton.store.url";
    /** Environment variable naming the store URL an agent without an explicit store uses. */
    public static final String URL_ENV = "BATON_STORE_URL";
    /** System property naming the provider to use when several accept a URL. */
    public static final String PROVIDER_PROPERTY = "baton.store.provider";

    private SnapshotStores() {
    }

    /**
     * Opens the store for {@code url} with no extra properties.
     *
     * @param url the store URL
     * @return the store; the caller closes it
     */
    public static SnapshotStore open(String url) {
        return open(url, Map.of());
    }

    /**
     * Opens the store for {@code url}.
     *
     * @throws StoreProviderException if no provider, or more than one, accepts the URL;
     *         the message lists the providers found
     * @param url        the store URL
     * @param properties provider-specific settings
     * @return the store; the caller closes it
     */
    public static SnapshotStore open(String url, Map<String, String> properties) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("url: a store URL is required, e.g. memory: or jdbc:h2:./data/baton");
        }
        List<SnapshotStoreProvider> all = providers();
        List<SnapshotStoreProvider> accepting = new ArrayList<>();
        for (SnapshotStoreProvider p : all) {
            if (p.accepts(url)) accepting.add(p);
        }
        String wanted = System.getProperty(PROVIDER_PROPERTY);
        if (wanted != null && !wanted.isBlank()) {
            accepting.removeIf(p -> !p.name().equals(wanted));
        }
        if (accepting.isEmpty()) {
            throw new StoreProviderException("No SnapshotStoreProvider accepts '" + redact(url) + "'. Providers found: "
                    + describe(all) + ". Add the matching module (baton-storage-memory, -jdbc, -mongo, -redis) to the class path"
                    + (wanted != null ? " or fix -D" + PROVIDER_PROPERTY + "=" + wanted : "") + ".");
        }
        if (accepting.size() > 1) {
            throw new StoreProviderException("Several SnapshotStoreProviders accept '" + redact(url) + "': "
                    + describe(accepting) + ". Choose one with -D" + PROVIDER_PROPERTY + "=NAME.");
        }
        SnapshotStoreProvider provider = accepting.get(0);
        LOG.debug("Opening {} with provider {}", redact(url), provider.name());
        return provider.open(url, properties == null ? Map.of() : Map.copyOf(properties));
    }

    /**
     * The URL an agent without an explicit store uses: {@code -Dbaton.store.url}, else {@code BATON_STORE_URL}, else {@code memory:}.
     *
     * @return the URL
     */
    public static String defaultUrl() {
        String prop = System.getProperty(URL_PROPERTY);
        if (prop != null && !prop.isBlank()) return prop;
        String env = System.getenv(URL_ENV);
        if (env != null && !env.isBlank()) return env;
        return "memory:";
    }

    /**
     * Every provider that loads, in service-loader order. Providers that fail to load are logged and left out.
     *
     * @return the providers
     */
    public static List<SnapshotStoreProvider> providers() {
        List<SnapshotStoreProvider> found = new ArrayList<>();
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        ServiceLoader<SnapshotStoreProvider> loader = cl != null
                ? ServiceLoader.load(SnapshotStoreProvider.class, cl)
                : ServiceLoader.load(SnapshotStoreProvider.class);
        Iterator<SnapshotStoreProvider> it = loader.iterator();
        while (true) {
            try {
                if (!it.hasNext()) break;
                found.add(it.next());
            } catch (ServiceConfigurationError e) {
                LOG.warn("A SnapshotStoreProvider failed to load and was skipped: {}", e.getMessage(), e);
            }
        }
        return found;
    }

    private static String describe(List<SnapshotStoreProvider> ps) {
        if (ps.isEmpty()) return "none";
        return ps.stream().map(p -> p.name() + " " + p.schemes()).collect(Collectors.joining(", "));
    }

    /**
     * Hides a password in a URL such as {@code redis://user:secret@host}.
     *
     * @param url a store URL
     * @return the URL with its password replaced by {@code ***}
     */
    public static String redact(String url) {
        return url.replaceAll("(//[^/:@]*:)[^@/]*@", "$1***@").replaceAll("(?i)(password=)[^&;]*", "$1***");
    }
}
