package dev.baton.store.jdbc;

/**
 * Round trips per store call on MariaDB, counted on the wire: every listing is one statement,
 * but for a page past the end, whose total is asked for alone (MariaDB has no LATERAL).
 */
@DatabaseLane("MariaDB")
class MariaDbRoundTripTest extends RoundTripContract {
    @Override
    WireCounter.Protocol protocol() {
        return WireCounter.Protocol.MYSQL;
    }

    @Override
    String url() {
        return TestDatabases.mariadbUrl();
    }

    @Override
    String plainWire() {
        return "sslMode=disable";
    }

    @Override
    int labelWriteTrips() {
        return 4;   // START TRANSACTION, the INSERT or UPDATE, the upsert of the label rows, COMMIT
    }

    @Override
    int pastTheEndTrips() {
        return 2;
    }
}
