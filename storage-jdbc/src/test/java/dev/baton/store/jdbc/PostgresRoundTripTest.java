package dev.baton.store.jdbc;

/** Round trips per store call on PostgreSQL, counted on the wire: every listing is one statement, past the end too. */
@DatabaseLane("PostgreSQL")
class PostgresRoundTripTest extends RoundTripContract {
    @Override
    WireCounter.Protocol protocol() {
        return WireCounter.Protocol.POSTGRESQL;
    }

    @Override
    String url() {
        return TestDatabases.postgresUrl();
    }

    @Override
    String plainWire() {
        return "sslmode=disable&gssEncMode=disable";
    }

    @Override
    int labelWriteTrips() {
        return 1;   // the labels are a column of the one statement
    }

    @Override
    int pastTheEndTrips() {
        return 1;
    }
}
