package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;

/**
 * The cross-process TCK on an H2 file shared by several JVMs: {@code AUTO_SERVER=TRUE} lets the
 * first JVM serve the file to the others (and another take over when it is killed).
 */
class H2ProcessTest extends ProcessContract {
    @Override
    protected String storeUrl() {
        return "jdbc:h2:file:" + TestDatabases.dir("h2-shared").resolve("baton").toAbsolutePath() + ";AUTO_SERVER=TRUE";
    }
}
