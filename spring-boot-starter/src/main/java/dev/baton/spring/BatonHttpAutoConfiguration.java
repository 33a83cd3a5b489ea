package dev.baton.spring;

import dev.baton.agent.Agent;
import dev.baton.http.Authenticator;
import dev.baton.http.BatonHttpApi;
import dev.baton.http.BatonHttpServlet;
import dev.baton.http.BearerTokenAuthenticator;
import dev.baton.http.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.catalina.connector.Connector;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registers Baton's HTTP API and inbox page ({@code baton-http}) as a servlet ({@link BatonHttpServlet}) when
 * {@code baton.http.enabled=true}: every {@link Agent} bean is served under
 * {@code baton.http.base-path} (default {@code /baton}, the page at {@code /baton/}).
 *
 * <p>Who may call is decided by your {@link Authenticator} bean if you declare one. Otherwise by a
 * chain, first answer wins: the request's Spring Security authentication (when Spring Security is
 * on the class path), mapped by a {@link BatonPrincipalMapper} bean (default: every authenticated
 * user sees every run); then the bearer tokens of {@code baton.http.tokens}; then, only with
 * {@code baton.http.anonymous=true}, everyone as one unrestricted principal. With none of these the
 * application does not start.
 *
 * <p>Closing: the API holds nothing to close and never closes the agents it serves; Spring closes
 * the agent beans and the store at shutdown, after the web server stopped.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({BatonHttpApi.class, ServletRegistrationBean.class})
@ConditionalOnProperty(prefix = "baton.http", name = "enabled", havingValue = "true")
public class BatonHttpAutoConfiguration {

    /** The name of the bean that takes the principal from Spring Security. */
    static final String SPRING_SECURITY_AUTHENTICATOR = "batonSpringSecurityAuthenticator";

    /** Creates the auto-configuration (Spring does). */
    public BatonHttpAutoConfiguration() {
    }

    /**
     * The API over every agent bean.
     *
     * @param agents     every {@link Agent} bean, each id once
     * @param beans      where an {@link Authenticator} bean is looked for
     * @param properties {@code baton.http.*}
     * @return the API
     */
    @Bean
    @ConditionalOnMissingBean
    public BatonHttpApi batonHttpApi(ObjectProvider<Agent> agents, ListableBeanFactory beans, BatonProperties properties) {
        BatonHttpProperties http = properties.getHttp();
        Map<String, Agent> byId = new LinkedHashMap<>();
        agents.orderedStream().forEach(a -> {
            Agent other = byId.putIfAbsent(a.id(), a);
            if (other != null && other != a) {
                throw new IllegalStateException("Two Agent beans have the id '" + a.id() + "': the HTTP API serves each id once");
            }
        });
        if (byId.isEmpty()) {
            throw new IllegalStateException("baton.http.enabled=true but there is no Agent bean to serve: declare one "
                    + "(@Bean Agent myAgent(BatonAgents baton) { return baton.agent(\"my-agent\")...build(); })");
        }
        return BatonHttpApi.builder()
                .agents(byId.values())
                .authenticator(authenticator(beans, http))
                .maxBodyBytes((int) Math.min(Integer.MAX_VALUE, http.getMaxBodySize().toBytes()))
                .maxStreamsPerPrincipal(http.getMaxStreamsPerPrincipal())
                .inbox(http.isInbox())
                .agentDetailsForRestricted(http.isAgentDetailsForRestricted())
                .allowedHosts(http.getAllowedHosts())
                .trustedOrigins(http.getTrustedOrigins())
                .build();
    }

    private static Authenticator authenticator(ListableBeanFactory beans, BatonHttpProperties http) {
        Map<String, Authenticator> own = new LinkedHashMap<>(beans.getBeansOfType(Authenticator.class));
        Authenticator springSecurity = own.remove(SPRING_SECURITY_AUTHENTICATOR);
        if (own.size() > 1) {
            throw new IllegalStateException("Several Authenticator beans " + own.keySet() + ": the HTTP API takes one; "
                    + "combine them in one bean");
        }
        if (own.size() == 1) return own.values().iterator().next();
        List<Authenticator> chain = new ArrayList<>();
        if (springSecurity != null) chain.add(springSecurity);
        List<BatonHttpProperties.Token> tokens = http.getTokens();
        if (!tokens.isEmpty()) {
            BearerTokenAuthenticator.Builder b = Authenticator.bearerTokens();
            for (int i = 0; i < tokens.size(); i++) {
                BatonHttpProperties.Token t = tokens.get(i);
                if (t.getToken() == null || t.getToken().isBlank()) {
                    throw new IllegalStateException("baton.http.tokens[" + i + "].token is empty");
                }
                String name = t.getName() != null && !t.getName().isBlank() ? t.getName() : "token-" + i;
                b.token(t.getToken(), Principal.builder().name(name).roles(t.getRoles())
                        .resourceIds(t.getResourceIds().isEmpty() ? null : t.getResourceIds()).build());
            }
            chain.add(b.build());
        }
        if (http.isAnonymous()) chain.add(Authenticator.anonymous());
        if (chain.isEmpty()) {
            throw new IllegalStateException("baton.http.enabled=true but nobody can sign in: add Spring Security, declare an "
                    + "Authenticator bean, set baton.http.tokens[0].token (from the environment), or set "
                    + "baton.http.anonymous=true for a server bound to loopback on a single-user machine");
        }
        List<Authenticator> all = List.copyOf(chain);
        return request -> {
            for (Authenticator a : all) {
                Optional<Principal> p = a.authenticate(request);
                if (p.isPresent()) return p;
            }
            return Optional.empty();
        };
    }

    /**
     * The API's servlet ({@link BatonHttpServlet}), registered at {@code baton.http.base-path}
     * ({@code /baton/*} by default), beside Spring MVC's dispatcher: the path below it reaches the API
     * still percent-encoded, bodies are read asynchronously, and the answer is written on a container
     * thread after an {@code ASYNC} dispatch, so Spring Security's context and the request's
     * observation apply while a run works.
     *
     * @param api        the API
     * @param properties {@code baton.http.base-path}
     * @return the registration
     */
    @Bean
    @ConditionalOnMissingBean(name = "batonHttpServlet")
    public ServletRegistrationBean<BatonHttpServlet> batonHttpServlet(BatonHttpApi api, BatonProperties properties) {
        String mount = mount(properties.getHttp().getBasePath());
        ServletRegistrationBean<BatonHttpServlet> registration =
                new ServletRegistrationBean<>(new BatonHttpServlet(api), mount.isEmpty() ? "/*" : mount + "/*");
        registration.setName("batonHttpServlet");
        registration.setAsyncSupported(true);
        registration.setLoadOnStartup(1);
        return registration;
    }

    /**
     * {@code /baton}, {@code baton/} and {@code /baton/} all give {@code /baton}; {@code /} gives the empty string.
     *
     * @param basePath {@code baton.http.base-path}
     * @return the path the servlet is mapped under, without its trailing slash
     * @throws IllegalArgumentException a path with dot segments, {@code //}, escapes or wildcards
     */
    public static String mount(String basePath) {
        String p = basePath.trim();
        if (!p.startsWith("/")) p = "/" + p;
        while (p.endsWith("/")) p = p.substring(0, p.length() - 1);
        if (p.contains("//") || p.contains("/../") || p.endsWith("/..") || p.contains("/./") || p.endsWith("/.")
                || p.contains("%") || p.contains("*") || p.contains("{")) {
            throw new IllegalArgumentException("baton.http.base-path must be a plain path like /baton, was '" + basePath + "'");
        }
        return p;
    }

    /** The principal from Spring Security, when it is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.security.core.context.SecurityContextHolder")
    static class SpringSecurityPrincipal {
        @Bean(SPRING_SECURITY_AUTHENTICATOR)
        @ConditionalOnMissingBean
        SpringSecurityAuthenticator batonSpringSecurityAuthenticator(ObjectProvider<BatonPrincipalMapper> mapper) {
            return new SpringSecurityAuthenticator(mapper.getIfAvailable(BatonPrincipalMapper::unrestricted));
        }
    }

    /**
     * Lets Tomcat pass {@code %2F} through to the API (it rejects it by default), unless
     * {@code baton.http.allow-encoded-slash=false}. Spring Boot 4's Tomcat module only (its classes
     * moved in Boot 4): on Spring Boot 3.5, {@code baton-spring-boot3-starter} has the same customizer.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory",
            "org.apache.tomcat.util.buf.EncodedSolidusHandling"})
    @ConditionalOnProperty(prefix = "baton.http", name = "allow-encoded-slash", matchIfMissing = true)
    static class TomcatEncodedSlash {
        @Bean
        WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> batonEncodedSlashCustomizer() {
            return factory -> factory.addConnectorCustomizers((Connector c) ->
                    c.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue()));
        }
    }

    /**
     * Answers what Tomcat refuses itself under the base path (a bad escape, an over-long URI) with
     * Baton's problem documents ({@link BatonErrorReportValve}). Spring Boot 4's Tomcat module only: on
     * Spring Boot 3.5, {@code baton-spring-boot3-starter} does the same.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory",
            "org.apache.catalina.valves.ErrorReportValve"})
    static class TomcatProblems {
        @Bean
        WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> batonErrorReportCustomizer(BatonProperties properties) {
            String mount = mount(properties.getHttp().getBasePath());
            return factory -> factory.addContextCustomizers(context -> BatonErrorReportValve.install(context, mount));
        }
    }
}
