/**
 * Baton's HTTP API and approval inbox page: {@code dev.baton.http.BatonHttpApi}, served by the
 * servlet {@code dev.baton.http.BatonHttpServlet} in any servlet container, or on Eclipse Jetty by
 * {@code dev.baton.http.BatonHttpServer}.
 */
module dev.baton.http {
    requires transitive dev.baton.core;
    requires transitive jakarta.servlet;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires org.slf4j;
    requires com.nimbusds.jose.jwt;
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.ee10.servlet;
    requires org.eclipse.jetty.http2.server;
    requires org.eclipse.jetty.alpn.server;
    requires static transitive org.jspecify;

    exports dev.baton.http;
    // the API's JSON views are package-private records that Jackson writes
    opens dev.baton.http to com.fasterxml.jackson.databind;
}
