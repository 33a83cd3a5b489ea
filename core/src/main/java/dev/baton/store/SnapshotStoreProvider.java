package dev.baton.store;

import java.util.Map;

/**
 * Opens a {@link SnapshotStore} for a URL. Found with {@link java.util.ServiceLoader}: register
 * the implementation in {@code META-INF/services/dev.baton.store.SnapshotStoreProvider} and, for
 * modular applications, with {@code provides dev.baton.store.SnapshotStoreProvider with ...} in
 * {@code module-info.java}. Must have a public no-argument constructor.
 *
 * <p>Implementations are stateless and thread-safe; each store they open belongs to the caller, who closes it.
 */
public interface SnapshotStoreProvider {

    /**
     * A short name, e.g. {@code "jdbc"}; {@code -Dbaton.store.provider=NAME} picks it when several accept a URL.
     *
     * @return the name
     */
    String name();

    /**
     * The URL prefixes this provider accepts, e.g. {@code "jdbc:postgresql:"}, for messages.
     *
     * @return the prefixes
     */
    java.util.List<String> schemes();

    /**
     * True if this provider can open {@code url}. Must not connect.
     *
     * @param url a store URL
     * @return true if this provider opens it
     */
    boolean accepts(String url);

    /**
     * Opens a store for {@code url}. The store owns what it opens and releases it on close.
     *
     * @param properties provider-specific settings (user, password, table, key prefix, ...)
     * @param url the store URL
     * @return the store, owned by the caller (who closes it)
     */
    SnapshotStore open(String url, Map<String, String> properties);

    /**
     * For implementations: refuses properties the store does not know, so a typo is an error,
     * not a silently ignored setting.
     *
     * @throws dev.baton.InvalidOptionException naming the first unknown property and listing the known ones
     * @param store      the store's name, for the message
     * @param properties the properties given
     * @param known      the properties the store knows
     */
    static void requireKnownProperties(String store, Map<String, String> properties, java.util.Set<String> known) {
        java.util.TreeSet<String> unknown = new java.util.TreeSet<>(properties.keySet());
        unknown.removeAll(known);
        if (!unknown.isEmpty()) {
            throw new dev.baton.InvalidOptionException(unknown.first(), "unknown property of the " + store + " store; known: "
                    + new java.util.TreeSet<>(known));
        }
    }
}
