package dev.baton.bench;

import dev.baton.store.SnapshotStore;
import java.util.Map;

/**
 * The data set of {@link ScaleRun} on one backend at one size: the runs {@link ScaleData} describes,
 * seeded once and kept. {@link ScaleData} seeds PostgreSQL and MariaDB in SQL, {@link RedisScaleData}
 * seeds Redis through the store.
 */
interface ScaleSeed {
    /** The backend's name in the report ({@code postgres}, {@code mariadb}, {@code redis}). */
    String backend();

    /** How many runs. */
    int n();

    /** True if a complete seed of this size is already stored (a marker says so). */
    boolean isSeeded();

    /** Seeds the runs (dropping what was there); returns the seconds it took. */
    double seed();

    /** The seconds the stored seed took, from its marker (NaN if unknown). */
    double seededSeconds();

    /** A store on the seeded data; the caller closes it. */
    SnapshotStore openStore();

    /** Bytes per run from the server's own accounting: at least {@code rows}, {@code totalBytes} and {@code bytesPerRun}. */
    Map<String, Object> footprint() throws Exception;
}
