/**
 * Baton core: {@code Agent}, tools, the model interface, the run loop, the discovery rules and
 * the {@code SnapshotStore} SPI. Knows nothing of any database.
 */
module dev.baton.core {
    requires transitive com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires com.fasterxml.jackson.datatype.jdk8;
    // victools' jsonschema-generator, relocated into this module (dev.baton.internal.shaded.victools), needs it
    requires com.fasterxml.classmate;
    requires org.slf4j;
    requires static transitive org.jspecify;

    exports dev.baton;
    exports dev.baton.agent;
    exports dev.baton.memory;
    exports dev.baton.model;
    exports dev.baton.store;
    exports dev.baton.tool;

    uses dev.baton.store.SnapshotStoreProvider;
}
