package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The cross-process TCK on one SQLite file written by several JVMs (WAL, busy_timeout). Beside the other classes, one
 * scenario at a time ({@link TestDatabases#MORE_WORKER_JVMS}), on a file of its own: the other SQLite classes' file is
 * theirs.
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(TestDatabases.MORE_WORKER_JVMS)
class SqliteProcessTest extends ProcessContract {
    // scenariosAtOnce() stays false: with the seven scenarios at once (a load of 30 on 2 cores), every first
    // worker opened the file and then gave no "ready" within 60 s; one at a time they pass

    @Override
    protected String storeUrl() {
        return "jdbc:sqlite:" + TestDatabases.dir("sqlite-process").resolve("baton.db").toAbsolutePath();
    }
}
