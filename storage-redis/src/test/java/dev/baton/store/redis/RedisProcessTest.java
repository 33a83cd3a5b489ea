package dev.baton.store.redis;

import dev.baton.tck.ProcessContract;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * The cross-process TCK: separate JVMs race on and are killed around runs stored in one Redis. Beside the module's other
 * classes (its scenarios mostly wait, on worker JVMs starting and leases lapsing), in a key prefix of its own.
 */
@Execution(ExecutionMode.CONCURRENT)
class RedisProcessTest extends ProcessContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisProcessTest.class);

    /** The scenarios run at the same time: each has its own agent, and every write is on the server when it returns. */
    @Override
    protected boolean scenariosAtOnce() {
        return true;
    }

    @Override
    protected String storeUrl() {
        return RedisTestServer.url();
    }

    @Override
    protected Map<String, String> storeProperties() {
        return Map.of("keyPrefix", PREFIX);
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
