package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.tool.Tool;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** With micrometer-tracing, each stream, tool execution and model call is a span carrying the run id. */
class TracingTest {

    private final SimpleTracer tracer = new SimpleTracer();
    private final ObservationRegistry observations = ObservationRegistry.create();

    {
        observations.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonMetricsAutoConfiguration.class))
            .withBean(ObservationRegistry.class, () -> observations);

    private List<SimpleSpan> spans(String name) {
        return tracer.getSpans().stream().filter(s -> s.getName().equals(name)).toList();
    }

    @Test
    void aRunIsASpanWithItsRunIdAndItsToolAndModelCallsAreItsChildren() {
        List<Span> currentInTool = new CopyOnWriteArrayList<>();
        runner.run(ctx -> {
            Agent agent = TestAgents.concierge(ctx.getBean(BatonAgents.class), "concierge", tool -> currentInTool.add(tracer.currentSpan()));
            AgentResult r = agent.generate("What is the weather?");
            assertThat(r.outcome()).isEqualTo(RunOutcome.COMPLETED);

            SimpleSpan run = spans("baton start concierge").get(0);
            assertThat(run.getTags()).containsEntry("baton.run.id", r.runId()).containsEntry("agent", "concierge")
                    .containsEntry("action", "start").containsEntry("outcome", "completed");
            assertThat(run.getEndTimestamp()).isNotNull();

            SimpleSpan tool = spans("baton tool getWeather").get(0);
            assertThat(tool.getTraceId()).isEqualTo(run.getTraceId());
            assertThat(tool.getParentId()).isEqualTo(run.getSpanId());
            assertThat(tool.getTags()).containsEntry("baton.run.id", r.runId()).containsEntry("tool", "getWeather")
                    .containsEntry("outcome", "success").containsKey("baton.tool.call.id");
            assertThat(currentInTool).as("the span current inside the tool").hasSize(1);
            assertThat(currentInTool.get(0).context().spanId()).isEqualTo(tool.getSpanId());

            List<SimpleSpan> model = spans("baton model concierge");
            assertThat(model).hasSize(2).allSatisfy(m -> {
                assertThat(m.getParentId()).isEqualTo(run.getSpanId());
                assertThat(m.getTags()).containsEntry("baton.run.id", r.runId()).containsEntry("outcome", "ok");
            });
            assertThat(tracer.currentSpan()).as("nothing left in scope").isNull();
        });
    }

    @Test
    void anApprovalIsASpanOfItsOwnWithTheSameRunIdUnderTheCallersSpan() {
        runner.run(ctx -> {
            Agent agent = TestAgents.concierge(ctx.getBean(BatonAgents.class), "concierge");
            AgentResult first = TestAgents.suspendedRun(agent, "alice");
            Observation request = Observation.start("http.server.requests", observations);
            try (Observation.Scope scope = request.openScope()) {
                agent.approveToolCall(first.runId(), first.waitingCalls().get(0).toolCallId()).result();
            } finally {
                request.stop();
            }
            SimpleSpan started = spans("baton start concierge").get(0);
            SimpleSpan approved = spans("baton approve concierge").get(0);
            SimpleSpan http = spans("http.server.requests").get(0);
            assertThat(started.getTags()).containsEntry("baton.run.id", first.runId()).containsEntry("outcome", "suspended");
            assertThat(approved.getTags()).containsEntry("baton.run.id", first.runId()).containsEntry("action", "approve")
                    .containsEntry("outcome", "completed");
            assertThat(approved.getParentId()).isEqualTo(http.getSpanId());
            assertThat(spans("baton tool bookFlight").get(0).getParentId()).isEqualTo(approved.getSpanId());
        });
    }

    @Test
    void aRunThatAToolStartsOnAnotherAgentIsAChildOfThatToolsSpan() {
        runner.run(ctx -> {
            BatonAgents baton = ctx.getBean(BatonAgents.class);
            Agent visa = baton.agent("visa-desk").model(DeterministicModel.builder().build()).build();
            Agent desk = baton.agent("travel-desk")
                    .model(DeterministicModel.builder().whenUserSays("visa", "askVisaDesk", Map.of("country", "Peru")).build())
                    .tools(Tool.builder("askVisaDesk").execute((in, c) -> visa.generate("Visa for " + in.path("country").asText()).text())
                            .build())
                    .build();
            assertThat(desk.generate("I need a visa").outcome()).isEqualTo(RunOutcome.COMPLETED);
            SimpleSpan tool = spans("baton tool askVisaDesk").get(0);
            SimpleSpan inner = spans("baton start visa-desk").get(0);
            assertThat(inner.getParentId()).isEqualTo(tool.getSpanId());
            assertThat(inner.getTraceId()).isEqualTo(spans("baton start travel-desk").get(0).getTraceId());
            assertThat(inner.getTags().get("baton.run.id")).isNotEqualTo(spans("baton start travel-desk").get(0).getTags().get("baton.run.id"));
        });
    }
}
