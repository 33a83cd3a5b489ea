package dev.baton.store.mongo;

import dev.baton.tck.ProcessContract;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The cross-process TCK: separate JVMs race on and are killed around runs in one MongoDB. On the
 * in-JVM server the worker JVMs connect to it over loopback, as to any other server. Beside the module's other classes
 * (its scenarios mostly wait, on worker JVMs starting and leases lapsing), with agents of its own.
 */
@Execution(ExecutionMode.CONCURRENT)
class MongoProcessTest extends ProcessContract {
    /** The scenarios run at the same time: each has its own agent, and every write is on the server when it returns. */
    @Override
    protected boolean scenariosAtOnce() {
        return true;
    }

    @Override
    protected String storeUrl() {
        return MongoTestServer.url(getClass());
    }
}
