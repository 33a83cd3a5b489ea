package dev.baton.examples.filestore;

import dev.baton.tck.ProcessContract;

/** The cross-process contract: the store declares SHARED and DURABLE, so it must prove both with real JVMs. */
public class FileProcessTest extends ProcessContract {

    /** The scenarios run at the same time: each has its own agent, and every write is in its files when it returns. */
    @Override
    protected boolean scenariosAtOnce() {
        return true;
    }

    @Override
    protected String storeUrl() {
        return "filestore:target/tck-runs";
    }
}
