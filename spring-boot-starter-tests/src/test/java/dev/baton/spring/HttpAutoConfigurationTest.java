package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.http.Authenticator;
import dev.baton.http.BatonHttpApi;
import dev.baton.http.Principal;
import dev.baton.http.ServletCall;
import dev.baton.http.ServletCall.Answer;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.context.SecurityContextHolder;

/** When the HTTP API is mounted, and who may call it. */
class HttpAutoConfigurationTest {

    private static final String TOKEN = "a-token-of-at-least-16-characters";

    @Configuration(proxyBeanMethods = false)
    static class ConciergeBean {
        @Bean
        Agent concierge(BatonAgents baton) {
            return TestAgents.concierge(baton, "concierge");
        }
    }

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(BootLine.baton())
            .withUserConfiguration(ConciergeBean.class)
            .withPropertyValues("baton.http.enabled=true");

    /** The same runner, on a class path without Spring Security. */
    private final WebApplicationContextRunner withoutSecurity = runner.withClassLoader(new FilteredClassLoader(SecurityContextHolder.class));

    private static Answer get(BatonHttpApi api, String path, String authorization) {
        return ServletCall.send(api, "GET", path, authorization == null ? Map.of("Host", "localhost")
                : Map.of("Authorization", authorization, "Host", "localhost"), new byte[0]);
    }

    private static String body(Answer r) {
        return r.text();
    }

    @Nested
    class Mounting {
        @Test
        void offUnlessBatonHttpEnabled() {
            new WebApplicationContextRunner()
                    .withConfiguration(BootLine.baton())
                    .withUserConfiguration(ConciergeBean.class)
                    .run(ctx -> assertThat(ctx).doesNotHaveBean(BatonHttpApi.class).doesNotHaveBean("batonHttpServlet"));
        }

        @Test
        void notInAnApplicationThatIsNoServletWebApplication() {
            new ApplicationContextRunner()
                    .withConfiguration(BootLine.baton())
                    .withUserConfiguration(ConciergeBean.class).withPropertyValues("baton.http.enabled=true")
                    .run(ctx -> assertThat(ctx).doesNotHaveBean(BatonHttpApi.class));
        }

        @Test
        void theBoundOnEventStreamsPerPrincipalComesFromTheProperties() {
            runner.run(ctx -> assertThat(ctx.getBean(BatonHttpApi.class).maxStreamsPerPrincipal()).isEqualTo(8));
            runner.withPropertyValues("baton.http.max-streams-per-principal=3")
                    .run(ctx -> assertThat(ctx.getBean(BatonHttpApi.class).maxStreamsPerPrincipal()).isEqualTo(3));
        }

        @Test
        void everyAgentBeanIsServedUnderTheBasePath() {
            runner.withPropertyValues("baton.http.base-path=/ops/inbox/").run(ctx -> {
                assertThat(ctx.getBean("batonHttpServlet", ServletRegistrationBean.class).getUrlMappings())
                        .containsExactly("/ops/inbox/*");
                assertThat(ctx.getBean(BatonHttpApi.class).agents()).extracting(Agent::id).containsExactly("concierge");
            });
        }

        @Test
        void aBasePathThatIsNotAPlainPathIsRefused() {
            runner.withPropertyValues("baton.http.base-path=/baton/../admin")
                    .run(ctx -> assertThat(StoreAutoConfigurationTest.messages(ctx.getStartupFailure()))
                            .contains("baton.http.base-path must be a plain path"));
        }

        @Test
        void withoutAnAgentBeanTheStartFailsSayingSo() {
            new WebApplicationContextRunner()
                    .withConfiguration(BootLine.baton())
                    .withPropertyValues("baton.http.enabled=true", "baton.http.anonymous=true")
                    .run(ctx -> assertThat(StoreAutoConfigurationTest.messages(ctx.getStartupFailure()))
                            .contains("there is no Agent bean to serve"));
        }

        @Test
        void tomcatIsToldToPassEncodedSlashesThroughUnlessSwitchedOff() {
            runner.run(ctx -> assertThat(ctx).hasBean("batonEncodedSlashCustomizer"));
            runner.withPropertyValues("baton.http.allow-encoded-slash=false")
                    .run(ctx -> assertThat(ctx).doesNotHaveBean("batonEncodedSlashCustomizer"));
        }
    }

    @Nested
    class WhoMayCall {
        @Test
        void withNoWayToSignInTheStartFailsSayingWhatToDo() {
            withoutSecurity.run(ctx -> assertThat(StoreAutoConfigurationTest.messages(ctx.getStartupFailure()))
                    .contains("nobody can sign in").contains("baton.http.tokens").contains("Authenticator bean"));
        }

        @Test
        void bearerTokensFromProperties() {
            withoutSecurity.withPropertyValues("baton.http.tokens[0].token=" + TOKEN, "baton.http.tokens[0].name=alice",
                    "baton.http.tokens[0].resource-ids=alice").run(ctx -> {
                        BatonHttpApi api = ctx.getBean(BatonHttpApi.class);
                        Answer me = get(api, "/me", "Bearer " + TOKEN);
                        assertThat(me.status()).isEqualTo(200);
                        assertThat(body(me)).contains("\"name\":\"alice\"").contains("\"resourceIds\":[\"alice\"]");
                        assertThat(get(api, "/me", "Bearer not-the-token-at-all-nope").status()).isEqualTo(401);
                        assertThat(get(api, "/me", null).status()).isEqualTo(401);
                    });
        }

        @Test
        void anonymousOnlyWhenAskedFor() {
            withoutSecurity.withPropertyValues("baton.http.anonymous=true").run(ctx -> {
                Answer me = get(ctx.getBean(BatonHttpApi.class), "/me", null);
                assertThat(me.status()).isEqualTo(200);
                assertThat(body(me)).contains("\"name\":\"anonymous\"");
            });
        }

        @Test
        void theApplicationsAuthenticatorWinsOverEverythingElse() {
            Authenticator byHeader = request -> Optional.ofNullable(request.getHeader("X-User")).map(Principal::unrestricted);
            runner.withBean(Authenticator.class, () -> byHeader)
                    .withPropertyValues("baton.http.tokens[0].token=" + TOKEN, "baton.http.anonymous=true")
                    .run(ctx -> {
                        BatonHttpApi api = ctx.getBean(BatonHttpApi.class);
                        assertThat(get(api, "/me", "Bearer " + TOKEN).status()).isEqualTo(401);
                        Answer me = ServletCall.send(api, "GET", "/me", Map.of("X-User", "carol", "Host", "localhost"), new byte[0]);
                        assertThat(body(me)).contains("\"name\":\"carol\"");
                    });
        }

        @Test
        void withSpringSecurityARequestWithoutAnAuthenticationFallsBackToTheTokens() {
            runner.withPropertyValues("baton.http.tokens[0].token=" + TOKEN, "baton.http.tokens[0].name=ops").run(ctx -> {
                assertThat(ctx).hasBean(BatonHttpAutoConfiguration.SPRING_SECURITY_AUTHENTICATOR);
                BatonHttpApi api = ctx.getBean(BatonHttpApi.class);
                assertThat(body(get(api, "/me", "Bearer " + TOKEN))).contains("\"name\":\"ops\"");
                assertThat(get(api, "/me", null).status()).isEqualTo(401);
            });
        }

        @Test
        void withSpringSecurityTheAuthenticatedUserIsThePrincipal() {
            runner.run(ctx -> {
                BatonHttpApi api = ctx.getBean(BatonHttpApi.class);
                var auth = org.springframework.security.authentication.UsernamePasswordAuthenticationToken.authenticated(
                        "dave", "n/a", java.util.List.of());
                SecurityContextHolder.getContext().setAuthentication(auth);
                try {
                    assertThat(body(get(api, "/me", null))).contains("\"name\":\"dave\"").contains("\"resourceIds\":null");
                } finally {
                    SecurityContextHolder.clearContext();
                }
                var anonymous = new org.springframework.security.authentication.AnonymousAuthenticationToken("key", "anonymousUser",
                        org.springframework.security.core.authority.AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS"));
                SecurityContextHolder.getContext().setAuthentication(anonymous);
                try {
                    assertThat(get(api, "/me", null).status()).as("an anonymous authentication").isEqualTo(401);
                } finally {
                    SecurityContextHolder.clearContext();
                }
            });
        }

        @Test
        void springSecurityAuthoritiesAreThePrincipalsRolesWithoutTheRolePrefix() {
            runner.run(ctx -> {
                BatonHttpApi api = ctx.getBean(BatonHttpApi.class);
                var auth = org.springframework.security.authentication.UsernamePasswordAuthenticationToken.authenticated("maria", "n/a",
                        org.springframework.security.core.authority.AuthorityUtils.createAuthorityList("ROLE_travel", "SCOPE_inbox", "ROLE_travel"));
                SecurityContextHolder.getContext().setAuthentication(auth);
                try {
                    assertThat(body(get(api, "/me", null))).contains("\"name\":\"maria\"").contains("\"roles\":[\"SCOPE_inbox\",\"travel\"]");
                } finally {
                    SecurityContextHolder.clearContext();
                }
            });
        }

        @Test
        void bearerTokensFromPropertiesCarryTheirRoles() {
            withoutSecurity.withPropertyValues("baton.http.tokens[0].token=" + TOKEN, "baton.http.tokens[0].name=maria",
                    "baton.http.tokens[0].roles=travel,finance").run(ctx -> {
                        String me = body(get(ctx.getBean(BatonHttpApi.class), "/me", "Bearer " + TOKEN));
                        assertThat(me).contains("\"resourceIds\":null").contains("\"roles\":[\"finance\",\"travel\"]");
                    });
        }

        @Test
        void theActorIsSpringSecuritysUserWhateverNameTheMapperGives() {
            runner.withBean(BatonPrincipalMapper.class, () -> auth -> java.util.Optional.of(Principal.limitedTo("team-7", "acme")))
                    .run(ctx -> {
                        BatonHttpApi api = ctx.getBean(BatonHttpApi.class);
                        var auth = org.springframework.security.authentication.UsernamePasswordAuthenticationToken.authenticated(
                                "erin", "n/a", java.util.List.of());
                        SecurityContextHolder.getContext().setAuthentication(auth);
                        try {
                            assertThat(body(get(api, "/me", null))).contains("\"name\":\"erin\"").contains("\"resourceIds\":[\"acme\"]");
                        } finally {
                            SecurityContextHolder.clearContext();
                        }
                    });
        }
    }
}
