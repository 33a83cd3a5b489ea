package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;
import java.util.Map;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The cross-process TCK: separate JVMs race on and are killed around runs stored in MariaDb. Beside the other classes,
 * one scenario at a time ({@link TestDatabases#MORE_WORKER_JVMS}), in a table of its own.
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(TestDatabases.MORE_WORKER_JVMS)
class MariaDbProcessTest extends ProcessContract {
    // scenariosAtOnce() stays false: with the scenarios at once (a load of 35 on 2 cores), the SIGTERM scenario
    // once found its run "not stored" after the hand-back (two other runs passed); one at a time it passes

    @Override
    protected String storeUrl() {
        return TestDatabases.mariadbUrl();
    }

    @Override
    protected Map<String, String> storeProperties() {
        return Map.of("table", "baton_process");
    }
}
