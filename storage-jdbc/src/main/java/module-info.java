/**
 * The JDBC {@link dev.baton.store.SnapshotStore} on Jdbi 3: PostgreSQL, MySQL/MariaDB, H2 and SQLite.
 * Opened by {@code SnapshotStores.open("jdbc:...")} or built from an application's own
 * {@code DataSource} or {@code Jdbi} with {@link dev.baton.store.jdbc.JdbcSnapshotStore#builder(javax.sql.DataSource)}.
 */
@SuppressWarnings("requires-transitive-automatic") // Jdbi has no module-info; its Jdbi type is in our API
module dev.baton.store.jdbc {
    requires transitive dev.baton.core;
    requires transitive java.sql;
    requires transitive org.jdbi.v3.core;
    requires com.zaxxer.hikari;
    requires org.slf4j;
    requires static org.jspecify;

    exports dev.baton.store.jdbc;

    provides dev.baton.store.SnapshotStoreProvider with dev.baton.store.jdbc.JdbcSnapshotStoreProvider;
}
