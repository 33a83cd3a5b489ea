package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The cross-process TCK on an H2 file shared by several JVMs: {@code AUTO_SERVER=TRUE} lets the
 * first JVM serve the file to the others (and another take over when it is killed). Beside the other classes, one
 * scenario at a time: {@link TestDatabases#WORKER_JVMS}.
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(TestDatabases.WORKER_JVMS)
class H2ProcessTest extends ProcessContract {
    // scenariosAtOnce() stays false: with every scenario at once on a 2-core machine under a load of 30, files
    // whose serving JVM was killed came back without the run just stored, or corrupted ("File corrupted in
    // chunk"), though each scenario has a file of its own and WRITE_DELAY is 0; one at a time they pass

    /** A file per test: what one test's kills do to H2's file never reaches the next test. */
    private final String file = "baton-" + java.util.UUID.randomUUID().toString().substring(0, 8);

    @Override
    protected String storeUrl() {
        return "jdbc:h2:file:" + TestDatabases.dir("h2-shared").resolve(file).toAbsolutePath() + ";AUTO_SERVER=TRUE";
    }
}
