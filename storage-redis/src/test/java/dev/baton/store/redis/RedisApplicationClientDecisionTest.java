package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.DecisionContract;
import org.junit.jupiter.api.AfterAll;

/** The DecisionContract again, on stores built from one application-owned {@link io.lettuce.core.RedisClient}. */
class RedisApplicationClientDecisionTest extends DecisionContract {
    private static final ApplicationClient CLIENT = new ApplicationClient(RedisApplicationClientDecisionTest.class);

    @Override
    protected SnapshotStore openStore() {
        return CLIENT.open();
    }

    @AfterAll
    static void shutdownTheClient() {
        CLIENT.close();
    }
}
