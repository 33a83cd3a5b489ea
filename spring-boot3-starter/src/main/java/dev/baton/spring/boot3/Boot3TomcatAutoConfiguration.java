package dev.baton.spring.boot3;

import dev.baton.spring.BatonErrorReportValve;
import dev.baton.spring.BatonHttpAutoConfiguration;
import dev.baton.spring.BatonProperties;
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
 * Spring Boot 3.5's Tomcat, when Baton's HTTP API is served ({@code baton.http.enabled=true}): it passes
 * {@code %2F} through to the API (it rejects it by default) unless
 * {@code baton.http.allow-encoded-slash=false}, and answers what it refuses itself under the base path
 * with Baton's problem documents: the same settings as the starter's on Spring Boot 4, whose Tomcat
 * classes moved. Guarded by a class only Spring Boot 3 has.
 */
@AutoConfiguration(after = BatonHttpAutoConfiguration.class)
@ConditionalOnClass(name = {"org.springframework.boot.web.embedded.tomcat.ConfigurableTomcatWebServerFactory",
        "org.apache.tomcat.util.buf.EncodedSolidusHandling", "dev.baton.http.BatonHttpApi"})
@ConditionalOnBean(type = "dev.baton.http.BatonHttpApi")
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
    @ConditionalOnProperty(prefix = "baton.http", name = "allow-encoded-slash", matchIfMissing = true)
    public WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> batonEncodedSlashCustomizer() {
        return factory -> factory.addConnectorCustomizers((Connector c) ->
                c.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue()));
    }

    /**
     * Answers what Tomcat refuses itself under the base path (a bad escape, an over-long URI) with
     * Baton's problem documents ({@link BatonErrorReportValve}).
     *
     * @param properties {@code baton.http.base-path}
     * @return the customizer
     */
    @Bean
    public WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> batonErrorReportCustomizer(BatonProperties properties) {
        String mount = BatonHttpAutoConfiguration.mount(properties.getHttp().getBasePath());
        return factory -> factory.addContextCustomizers(context -> BatonErrorReportValve.install(context, mount));
    }
}
