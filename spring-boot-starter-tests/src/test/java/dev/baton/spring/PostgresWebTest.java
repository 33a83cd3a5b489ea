package dev.baton.spring;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The web tests on PostgreSQL (BATON_TEST_POSTGRES_URL, set by CI) as the application's DataSource. */
@EnabledIfEnvironmentVariable(named = "BATON_TEST_POSTGRES_URL", matches = ".+")
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
