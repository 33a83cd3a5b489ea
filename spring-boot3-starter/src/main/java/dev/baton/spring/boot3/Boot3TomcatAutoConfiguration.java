package dev.baton.spring.boot3;

import dev.baton.spring.BatonHttpAutoConfiguration;
import org.apache.catalina.connector.Connector;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.embedded.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * Lets Spring Boot 3.5's Tomcat pass {@code %2F} through to Baton's HTTP API (it rejects it by
 * default) when the API is served ({@code baton.http.enabled=true}), unless
 * {@code baton.http.allow-encoded-slash=false}: the same setting as the starter's on Spring Boot 4,
 * whose Tomcat classes moved. Guarded by a class only Spring Boot 3 has.
 */
@AutoConfiguration(after = BatonHttpAutoConfiguration.class)
@ConditionalOnClass(name = {"org.springframework.boot.web.embedded.tomcat.ConfigurableTomcatWebServerFactory",
        "org.apache.tomcat.util.buf.EncodedSolidusHandling", "dev.baton.http.BatonHttpApi"})
@ConditionalOnBean(type = "dev.baton.http.BatonHttpApi")
@ConditionalOnProperty(prefix = "baton.http", name = "allow-encoded-slash", matchIfMissing = true)
public class Boot3TomcatAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public Boot3TomcatAutoConfiguration() {
    }

    /**
     * Tells Tomcat's connectors to pass encoded slashes through.
     *
     * @return the customizer
     */
    @Bean
    public WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> batonEncodedSlashCustomizer() {
        return factory -> factory.addConnectorCustomizers((Connector c) ->
                c.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue()));
    }
}
