package dev.baton.examples.spring;

import dev.baton.agent.Agent;
import dev.baton.agent.RunOptions;
import dev.baton.model.DeterministicModel;
import dev.baton.spring.BatonAgents;
import dev.baton.tool.Tool;
import java.util.Map;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application with one Baton agent. The starter builds the store on the application's
 * DataSource (an H2 file, see application.properties), serves the inbox at
 * http://127.0.0.1:8080/baton/ and publishes Baton's metrics and the store's health under /actuator.
 *
 * <p>Run it with {@code java -jar examples-spring/target/baton-examples-spring.jar} after a build.
 */
@SpringBootApplication
public class SpringInboxApplication {

    public static void main(String[] args) {
        SpringApplication.run(SpringInboxApplication.class, args);
    }

    /** The agent: bookFlight always waits for a person; refunds above 100 EUR do too. */
    @Bean
    Agent concierge(BatonAgents baton) {
        return baton.agent("concierge")
                .instructions("You book flights and refund orders.")
                .model(DeterministicModel.builder()
                        .whenUserSays("flight", "bookFlight", text -> Map.of("to", text.replaceAll("(?i).*\\bto ([A-Za-z ]+).*", "$1").trim()))
                        .whenUserSays("refund", "refund", text -> Map.of("amount", Integer.parseInt(text.replaceAll("\\D+", ""))))
                        .build())
                .tools(Tool.builder("bookFlight")
                                .description("Books a flight")
                                .requireApproval(true)
                                .execute((input, ctx) -> Map.of("booked", input.path("to").asText(), "ticket", ctx.idempotencyKey()))
                                .build(),
                        Tool.builder("refund")
                                .description("Refunds an order")
                                .requireApproval(input -> input.path("amount").asInt() > 100)
                                .execute((input, ctx) -> Map.of("refunded", input.path("amount").asInt()))
                                .build())
                .build();
    }

    /** Some runs to approve on the first start (the runs are stored, so a restart finds them again). */
    @Bean
    ApplicationRunner sampleRuns(Agent concierge) {
        return args -> {
            if (concierge.listSuspendedRuns().total() > 0) return;
            concierge.generate("Book a flight to Lisbon", RunOptions.builder().resourceId("alice").threadId("alice-trip").build());
            concierge.generate("Book a flight to Tokyo", RunOptions.builder().resourceId("carol").threadId("carol-trip").build());
            concierge.generate("Please refund 250 EUR", RunOptions.builder().resourceId("bob").threadId("bob-order").build());
        };
    }
}
