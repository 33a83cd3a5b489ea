package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;

import org.junit.jupiter.api.AfterAll;

/** The decision records checked directly against the reference again, on stores built from one application-owned {@link io.lettuce.core.RedisClient}. */
class RedisApplicationClientDecisionRecordsTest extends DecisionStoreChecks {
    private static final ApplicationClient CLIENT = new ApplicationClient(RedisApplicationClientDecisionRecordsTest.class);

    @Override
    protected SnapshotStore openStore() {
        return CLIENT.open();
    }

    @AfterAll
    static void shutdownTheClient() {
        CLIENT.close();
    }
}
