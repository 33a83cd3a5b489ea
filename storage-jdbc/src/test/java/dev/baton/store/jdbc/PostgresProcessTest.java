package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The cross-process TCK: separate JVMs race on and are killed around runs stored in Postgres. Beside the other classes,
 * one scenario at a time ({@link TestDatabases#WORKER_JVMS}: scenariosAtOnce() would be true, but the lock keeps the
 * scenarios in the class's thread).
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(TestDatabases.WORKER_JVMS)
class PostgresProcessTest extends ProcessContract {
    @Override
    protected String storeUrl() {
        return TestDatabases.postgresUrl();
    }
}
