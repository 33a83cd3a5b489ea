/**
 * Baton's HTTP API and approval inbox page: {@code dev.baton.http.BatonHttpApi} (framework-neutral)
 * and {@code dev.baton.http.BatonHttpServer} (on the JDK's {@code jdk.httpserver}).
 */
module dev.baton.http {
    requires transitive dev.baton.core;
    requires jdk.httpserver;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires org.slf4j;
    requires com.nimbusds.jose.jwt;
    requires static transitive org.jspecify;

    exports dev.baton.http;
}
