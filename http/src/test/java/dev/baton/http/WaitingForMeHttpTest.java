package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.ApproverRule;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import dev.baton.store.QueryFeature;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /agents/{id}/suspended-runs?waitingFor=me}: the listing filtered to the runs the caller (its name and
 * roles, as its decisions are taken) may decide now, with the resource scoping, paging and totals of any listing;
 * a 400 naming {@code waitingFor} for another value, an anonymous caller, or a store without the filter.
 */
class WaitingForMeHttpTest {
    private static final String ALICE = "alice-requester-token-01";
    private static final String BOB = "bob-no-role-token-000001";
    private static final String MARIA = "maria-travel-token-00001";
    private static final String JOHN = "john-travel-token-000001";
    private static final String TESS = "tess-two-resources-token";
    private static final String MINE = "/agents/concierge/suspended-runs?waitingFor=me";

    private static List<String> runIds(ApiClient.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        for (JsonNode run : r.json().get("runs")) out.add(run.get("runId").asText());
        assertThat(r.json().get("total").asLong()).as("the total counts the filter's matches: %s", r.body()).isEqualTo(out.size());
        return out;
    }

    @Test
    void waitingForMeListsTheRunsTheCallerMayDecideNowByItsNameAndRoles() {
        try (SnapshotStore store = MemorySnapshotStore.create();
             Agent agent = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, Clock.systemUTC(), m -> m)
                     .approverRules(ApproverRule.builder("two travel approvers").tool("bookFlight").roles("travel").approvals(2).build())
                     .build()) {
            BatonHttpApi api = BatonHttpApi.builder().agents(agent).authenticator(Authenticator.bearerTokens()
                    .token(ALICE, Principal.builder().name("alice").resourceIds(List.of("alice")).roles(List.of("travel")).build())
                    .token(BOB, Principal.unrestricted("bob"))
                    .token(MARIA, Principal.builder().name("maria").roles(List.of("travel", "finance")).build())
                    .token(JOHN, Principal.builder().name("john").roles(List.of("travel")).build())
                    .token(TESS, Principal.builder().name("tess").resourceIds(List.of("alice", "zed")).roles(List.of("travel")).build())
                    .build()).build();
            try (BatonHttpServer server = BatonHttpServer.builder(api).port(0).start()) {
                ApiClient alice = new ApiClient(server.uri(), ALICE);
                ApiClient bob = new ApiClient(server.uri(), BOB);
                ApiClient maria = new ApiClient(server.uri(), MARIA);
                ApiClient john = new ApiClient(server.uri(), JOHN);
                ApiClient tess = new ApiClient(server.uri(), TESS);
                ApiClient.Response started = alice.postForJson("/agents/concierge/runs", "{\"prompt\":\"Book a flight to Rome\"}");
                assertThat(started.status()).as(started.body()).isEqualTo(200);
                String run = started.json().get("runId").asText();
                String call = started.json().get("waitingCalls").get(0).get("toolCallId").asText();

                assertThat(runIds(maria.get(MINE))).as("a person of the rule's role").containsExactly(run);
                assertThat(runIds(tess.get(MINE))).as("over the caller's resources, merged").containsExactly(run);
                assertThat(runIds(bob.get(MINE))).as("without the role").isEmpty();
                assertThat(runIds(bob.get("/agents/concierge/suspended-runs"))).as("the listing without the filter").containsExactly(run);
                assertThat(runIds(alice.get(MINE))).as("the requester (separation of duties)").isEmpty();
                assertThat(runIds(maria.get(MINE + "&resourceId=alice&perPage=1&page=0"))).as("with the other filters").containsExactly(run);
                assertThat(runIds(maria.get(MINE + "&resourceId=nobody"))).isEmpty();

                ApiClient.Response first = maria.postForJson("/agents/concierge/runs/" + run + "/approve",
                        "{\"toolCallId\":\"" + call + "\"}");
                assertThat(first.json().get("outcome").asText()).as(first.body()).isEqualTo("SUSPENDED");
                assertThat(runIds(maria.get(MINE))).as("maria approved: the quorum waits for someone else").isEmpty();
                assertThat(runIds(john.get(MINE))).containsExactly(run);
                assertThat(runIds(maria.get("/agents/concierge/suspended-runs"))).as("she still sees it unfiltered").containsExactly(run);

                ApiClient.Response second = john.postForJson("/agents/concierge/runs/" + run + "/approve",
                        "{\"toolCallId\":\"" + call + "\"}");
                assertThat(second.json().get("outcome").asText()).as(second.body()).isEqualTo("COMPLETED");
                assertThat(runIds(john.get(MINE))).isEmpty();

                ApiClient.Response other = maria.get("/agents/concierge/suspended-runs?waitingFor=maria");
                assertThat(other.status()).as(other.body()).isEqualTo(400);
                assertThat(other.json().get("option").asText()).isEqualTo("waitingFor");
                assertThat(other.json().get("detail").asText()).contains("must be 'me'");
                ApiClient.Response empty = maria.get("/agents/concierge/suspended-runs?waitingFor=");
                assertThat(empty.status()).as(empty.body()).isEqualTo(400);
                assertThat(empty.json().get("option").asText()).isEqualTo("waitingFor");
            }
        }
    }

    /** {@code store}, declaring only the baseline query features (a store written before the deciders filter). */
    private static SnapshotStore baselineOnly(SnapshotStore store) {
        return (SnapshotStore) Proxy.newProxyInstance(SnapshotStore.class.getClassLoader(), new Class<?>[] {SnapshotStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("queryFeatures")) return Set.of(QueryFeature.BASELINE);
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void anAnonymousCallerAndAStoreWithoutTheDecidersFeatureGetA400NamingWaitingFor() {
        try (SnapshotStore store = MemorySnapshotStore.create();
             Agent agent = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, Clock.systemUTC(), m -> m).build();
             Agent lacking = TestAgents.conciergeBuilder("lacking", baselineOnly(MemorySnapshotStore.create()),
                     Clock.systemUTC(), m -> m).build()) {
            BatonHttpApi api = BatonHttpApi.builder().agents(agent, lacking).authenticator(Authenticator.anonymous()).build();
            try (BatonHttpServer server = BatonHttpServer.builder(api).port(0).start()) {
                ApiClient anyone = new ApiClient(server.uri(), null);
                ApiClient.Response r = anyone.get(MINE);
                assertThat(r.status()).as(r.body()).isEqualTo(400);
                assertThat(r.json().get("option").asText()).isEqualTo("waitingFor");
                assertThat(r.json().get("detail").asText()).contains("anonymous").contains("authenticate");
                assertThat(anyone.get("/agents/concierge/suspended-runs").status()).as("the listing without it").isEqualTo(200);
            }
            BatonHttpApi named = BatonHttpApi.builder().agents(agent, lacking).authenticator(Authenticator.bearerTokens()
                    .token(MARIA, Principal.builder().name("maria").roles(List.of("travel")).build()).build()).build();
            try (BatonHttpServer server = BatonHttpServer.builder(named).port(0).start()) {
                ApiClient maria = new ApiClient(server.uri(), MARIA);
                assertThat(runIds(maria.get(MINE))).isEmpty();
                ApiClient.Response r = maria.get("/agents/lacking/suspended-runs?waitingFor=me");
                assertThat(r.status()).as(r.body()).isEqualTo(400);
                assertThat(r.json().get("option").asText()).isEqualTo("waitingFor");
                assertThat(r.json().get("detail").asText()).contains("DECIDERS");
            }
        }
    }
}
