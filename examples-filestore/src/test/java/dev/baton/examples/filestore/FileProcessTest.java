package dev.baton.examples.filestore;

import dev.baton.tck.ProcessContract;

/** The cross-process contract: the store declares SHARED and DURABLE, so it must prove both with real JVMs. */
public class FileProcessTest extends ProcessContract {

    @Override
    protected String storeUrl() {
        return "filestore:target/tck-runs";
    }
}
