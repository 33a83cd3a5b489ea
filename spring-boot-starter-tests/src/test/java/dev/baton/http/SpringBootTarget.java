package dev.baton.http;

import dev.baton.spring.BatonHttpAutoConfiguration;
import dev.baton.spring.BatonProperties;
import dev.baton.store.memory.MemorySnapshotStore;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.stream.Collectors;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The HTTP test suite of {@code baton-http} ({@link HttpTarget}) on Tomcat, in a Spring Boot
 * application with the starter: one application per test JVM, started by the first server a test
 * asks for and shared by every class after it (Spring closes it when the JVM exits).
 *
 * <p>The application is the starter's, served at the root ({@code baton.http.base-path=/}): its
 * servlet registration ({@link BatonHttpAutoConfiguration#batonHttpServlet}: mapping, async support),
 * its Tomcat customizers (encoded slashes passed through, {@code BatonErrorReportValve} for the
 * container's own errors), Spring MVC's filters in front. What a test serves differs from test to
 * test (its agents, store, authenticator, body limit), so the registered servlet hands each request
 * to the {@link BatonHttpServlet} of the API served last and not yet closed, one built by
 * {@link #start} as {@link BatonHttpServer} would build it. Spring Security's auto-configuration is
 * left out: the suite tests the API's own checks, which a security filter chain in front would
 * answer first.
 */
public final class SpringBootTarget implements HttpTarget {
    private static final Deque<BatonHttpServlet> SERVING = new ConcurrentLinkedDeque<>();
    private static final Switch SWITCH = new Switch();
    private static volatile int port;

    /** Creates the target (the application starts with the first server). */
    public SpringBootTarget() {
    }

    @Override
    public Served start(BatonHttpApi api, Duration requestTimeout) {
        int p = port();
        BatonHttpServlet servlet = new BatonHttpServlet(api, requestTimeout);
        try {
            servlet.init(SWITCH.getServletConfig());
        } catch (ServletException e) {
            throw new IllegalStateException(e);
        }
        SERVING.addLast(servlet);
        URI uri = URI.create("http://127.0.0.1:" + p + "/");
        return new Served() {
            @Override
            public URI uri() {
                return uri;
            }

            @Override
            public int port() {
                return p;
            }

            @Override
            public void close() {
                if (SERVING.removeLastOccurrence(servlet)) servlet.destroy();
            }
        };
    }

    @Override
    public String name() {
        return "Spring Boot " + SpringBootVersion.getVersion() + " (Tomcat)";
    }

    private static synchronized int port() {
        if (port == 0) {
            // Spring Security's auto-configurations, by name on each Boot line (their packages moved in Boot 4)
            String security = ImportCandidates.load(AutoConfiguration.class, SpringBootTarget.class.getClassLoader()).getCandidates().stream()
                    .filter(n -> n.contains(".security.") && !n.startsWith("dev.baton."))
                    .collect(Collectors.joining(","));
            ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class).properties(
                    "server.port=0",
                    "server.address=127.0.0.1",
                    "baton.http.enabled=true",
                    "baton.http.base-path=/",
                    "spring.autoconfigure.exclude=" + security,
                    "spring.main.banner-mode=off").run();
            port = Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
        }
        return port;
    }

    /** The servlet the starter registers: hands each request to the API served last. */
    static final class Switch extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        public void service(ServletRequest req, ServletResponse res) throws ServletException, IOException {
            BatonHttpServlet current = SERVING.peekLast();
            if (current == null) {
                ((HttpServletResponse) res).sendError(503, "no API is served");
                return;
            }
            current.service(req, res);
        }
    }

    /** The application: the starter with its servlet registration around {@link Switch}. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        /** The API the starter's own servlet would serve (it needs one): the suite's APIs replace it request by request. */
        @Bean
        BatonHttpApi batonHttpApi() {
            return BatonHttpApi.builder()
                    .agents(TestAgents.concierge("placeholder", MemorySnapshotStore.create(), Clock.systemUTC()))
                    .authenticator(Authenticator.anonymous())
                    .build();
        }

        /** The starter's registration (mapping, name, async support, start order), around {@link Switch}. */
        @Bean
        ServletRegistrationBean<HttpServlet> batonHttpServlet(BatonHttpApi api, BatonProperties properties) {
            ServletRegistrationBean<BatonHttpServlet> starter = new BatonHttpAutoConfiguration().batonHttpServlet(api, properties);
            ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(SWITCH);
            registration.setName(starter.getServletName());
            registration.setUrlMappings(starter.getUrlMappings());
            registration.setAsyncSupported(starter.isAsyncSupported());
            registration.setLoadOnStartup(1);
            return registration;
        }
    }
}
