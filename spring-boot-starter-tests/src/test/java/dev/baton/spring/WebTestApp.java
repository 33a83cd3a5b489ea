package dev.baton.spring;

import static org.springframework.security.config.Customizer.withDefaults;

import dev.baton.agent.Agent;
import dev.baton.http.Principal;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * The application of the web tests: one agent bean, Spring Security with HTTP Basic (ops sees every
 * run, alice and bob only their own), the store on the application's DataSource.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class WebTestApp {

    static final String OPS = "ops";
    static final String PASSWORD = "correct-horse-battery";

    @Bean
    Agent concierge(BatonAgents baton, @Value("${test.agent-id}") String id) {
        return TestAgents.concierge(baton, id);
    }

    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(a -> a.requestMatchers("/actuator/**").permitAll().anyRequest().authenticated())
                .httpBasic(withDefaults())
                // the API takes only application/json bodies (415 otherwise): a cross-site form cannot post to it
                .csrf(c -> c.ignoringRequestMatchers("/baton/**"))
                .build();
    }

    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(
                User.withUsername(OPS).password("{noop}" + PASSWORD).roles("OPS").build(),
                User.withUsername("alice").password("{noop}" + PASSWORD).roles("USER").build(),
                User.withUsername("bob").password("{noop}" + PASSWORD).roles("USER").build());
    }

    @Bean
    BatonPrincipalMapper principals() {
        return auth -> auth.getAuthorities().stream().anyMatch(a -> a.getAuthority().equals("ROLE_OPS"))
                ? Optional.of(Principal.unrestricted(auth.getName()))
                : Optional.of(Principal.limitedTo(auth.getName(), auth.getName()));
    }

    /** Ids holding a slash or a percent sign reach the API (Spring Security rejects %2F and %25 by default). */
    @Bean
    HttpFirewall allowEncodedSlash() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowUrlEncodedSlash(true);
        firewall.setAllowUrlEncodedPercent(true);   // Tomcat passes %2F through as is, so the decoded path holds a '%'
        return firewall;
    }
}
