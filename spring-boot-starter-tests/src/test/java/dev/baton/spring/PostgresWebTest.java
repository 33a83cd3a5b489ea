package dev.baton.spring;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The web tests on PostgreSQL (BATON_TEST_POSTGRES_URL, set by CI) as the application's DataSource. On one Spring
 * Boot line (4.0, whose module sets {@code baton.spring.postgres-web}): what it adds to {@link H2WebTest}, which runs
 * on every line, is the database, which Spring Boot's line does not change; one application start less per line.
 */
@EnabledIfEnvironmentVariable(named = "BATON_TEST_POSTGRES_URL", matches = ".+")
@EnabledIfSystemProperty(named = "baton.spring.postgres-web", matches = "true")
class PostgresWebTest extends AbstractWebTest {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> System.getenv("BATON_TEST_POSTGRES_URL"));
    }

    @Override
    String database() {
        return "PostgreSQL";
    }
}
