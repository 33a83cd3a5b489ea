package dev.baton.store.mongo;

import dev.baton.tck.ProcessContract;

/**
 * The cross-process TCK: separate JVMs race on and are killed around runs in one MongoDB. On the
 * in-JVM server the worker JVMs connect to it over loopback, as to any other server.
 */
class MongoProcessTest extends ProcessContract {
    @Override
    protected String storeUrl() {
        return MongoTestServer.url();
    }
}
