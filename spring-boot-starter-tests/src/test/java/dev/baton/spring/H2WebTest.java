package dev.baton.spring;

import org.springframework.test.context.TestPropertySource;

/** The web tests on an H2 in-memory database as the application's DataSource. */
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:baton-web;DB_CLOSE_DELAY=-1")
class H2WebTest extends AbstractWebTest {
    @Override
    String database() {
        return "H2";
    }
}
