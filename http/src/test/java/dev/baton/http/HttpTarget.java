package dev.baton.http;

import java.net.URI;
import java.time.Duration;

/**
 * Where the HTTP test suite's servers run. By default on Jetty ({@link BatonHttpServer}); with the
 * system property {@value #PROPERTY} naming a class that implements this interface (public, with a
 * public no-argument constructor), on whatever it serves {@link BatonHttpServlet} in: the Spring Boot
 * starter's tests name one that serves it on Tomcat in one Spring application per test JVM
 * ({@code spring-boot-starter-tests/src/test/java/dev/baton/http/SpringBootTarget.java}).
 *
 * <p>The suite's classes start every server they talk to through {@link #serve}, so the same
 * assertions hold on each container. Tests of what only Jetty does (its connector's limits, TLS and
 * HTTP/2, a base path, a graceful close) start {@link BatonHttpServer} themselves.
 */
public interface HttpTarget {
    /** The system property naming the target class; unset means Jetty. */
    String PROPERTY = "baton.http.target";

    /**
     * Serves {@code api} at the root of a loopback server until the answer is closed.
     *
     * @param api            the API
     * @param requestTimeout how long a request body may take ({@link BatonHttpServlet#BatonHttpServlet(BatonHttpApi, Duration)})
     * @return the running server
     */
    Served start(BatonHttpApi api, Duration requestTimeout);

    /** {@return a short name for messages, e.g. "Jetty" or "Spring Boot 4.0.1 (Tomcat)"} */
    String name();

    /** A server the suite talks to. */
    interface Served extends AutoCloseable {
        /** {@return the root, with its trailing slash, e.g. {@code http://127.0.0.1:8080/}} */
        URI uri();

        /** {@return the loopback port} */
        int port();

        /** Stops serving this API (open event streams are interrupted). */
        @Override
        void close();
    }

    /**
     * {@return the target of this test JVM}
     */
    static HttpTarget current() {
        return Holder.TARGET;
    }

    /**
     * Serves {@code api} on the current target with a 30 s request time.
     *
     * @param api the API
     * @return the running server
     */
    static Served serve(BatonHttpApi api) {
        return serve(api, Duration.ofSeconds(30));
    }

    /**
     * Serves {@code api} on the current target.
     *
     * @param api            the API
     * @param requestTimeout how long a request body may take
     * @return the running server
     */
    static Served serve(BatonHttpApi api, Duration requestTimeout) {
        return current().start(api, requestTimeout);
    }

    /** The standalone server: {@link BatonHttpServer} on a free loopback port. */
    final class Jetty implements HttpTarget {
        /** Creates the target. */
        public Jetty() {
        }

        @Override
        public Served start(BatonHttpApi api, Duration requestTimeout) {
            BatonHttpServer server = BatonHttpServer.builder(api).port(0).requestTimeout(requestTimeout).start();
            return new Served() {
                @Override
                public URI uri() {
                    return server.uri();
                }

                @Override
                public int port() {
                    return server.port();
                }

                @Override
                public void close() {
                    server.close();
                }
            };
        }

        @Override
        public String name() {
            return "Jetty";
        }
    }

    /** Reads {@value #PROPERTY} once. */
    final class Holder {
        private Holder() {
        }

        static final HttpTarget TARGET = load();

        private static HttpTarget load() {
            String name = System.getProperty(PROPERTY, "");
            if (name.isBlank()) return new Jetty();
            try {
                return (HttpTarget) Class.forName(name.strip()).getConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(PROPERTY + "=" + name + " is not an HttpTarget with a public no-argument constructor", e);
            }
        }
    }
}
