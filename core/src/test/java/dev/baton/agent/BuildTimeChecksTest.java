package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.memory.Memory;
import dev.baton.model.DeterministicModel;
import dev.baton.store.QueryFeature;
import dev.baton.store.StoreCapability;
import dev.baton.testing.TestStore;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What an agent needs of its store is checked when it is built (or, for a query, before the store is called). */
class BuildTimeChecksTest {
    private static final DeterministicModel MODEL = DeterministicModel.builder().build();

    @Test
    void useStoreClockOnAStoreWithoutItsOwnClockFailsAtBuildNamingTheCapabilityAndTheStore() {
        TestStore store = new TestStore();
        assertThatThrownBy(() -> Agent.builder("a").model(MODEL).store(store).useStoreClock().build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("STORE_CLOCK").hasMessageContaining("TestStore");
        TestStore clocked = new TestStore(EnumSet.of(StoreCapability.STORE_CLOCK), EnumSet.of(QueryFeature.BASELINE));
        assertThat(Agent.builder("a").model(MODEL).store(clocked).useStoreClock().build().clock().toString())
                .contains("StoreClock");
    }

    @Test
    void aMemoryOnAStoreWithoutThreadMemoryFailsAtBuildNamingTheCapabilityAndTheStore() {
        TestStore store = new TestStore();
        assertThatThrownBy(() -> Agent.builder("a").model(MODEL).store(store).memory(Memory.builder().build()).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("THREAD_MEMORY").hasMessageContaining("TestStore");
        TestStore withMemory = new TestStore(EnumSet.of(StoreCapability.THREAD_MEMORY), EnumSet.of(QueryFeature.BASELINE));
        Agent agent = Agent.builder("a").model(MODEL).store(withMemory).memory(Memory.builder().build()).build();
        assertThat(agent.memory().orElseThrow().isBound()).isTrue();
    }

    @Test
    void aQueryUsingAFeatureTheStoreDidNotDeclareIsRefusedBeforeTheStoreIsCalled() {
        TestStore store = new TestStore(Set.of(), Set.of());
        Agent agent = Agent.builder("a").model(MODEL).store(store).build();
        assertThatThrownBy(agent::listSuspendedRuns).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("BASELINE").hasMessageContaining("TestStore");
        assertThatThrownBy(agent::countRuns).isInstanceOf(InvalidOptionException.class);
        assertThat(store.listCalls).hasValue(0);
        assertThat(new TestStore().queryFeatures()).contains(QueryFeature.BASELINE);
    }

    @Test
    void aWaitingForListingOnAStoreWithoutTheDecidersFeatureIsRefusedNamingItBeforeTheStoreIsCalled() {
        TestStore store = new TestStore();
        Agent agent = Agent.builder("a").model(MODEL).store(store).build();
        AgentListSuspendedRunsOptions mine = AgentListSuspendedRunsOptions.builder().waitingFor(Approver.of("maria", "finance")).build();
        assertThatThrownBy(() -> agent.listSuspendedRuns(mine)).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("DECIDERS").hasMessageContaining("TestStore");
        assertThat(store.listCalls).hasValue(0);
        assertThat(agent.listSuspendedRuns().total()).as("the same store lists without the filter").isZero();
        assertThat(mine.toBuilder().build()).isEqualTo(mine).hasSameHashCodeAs(mine);
        assertThat(mine.waitingFor()).isEqualTo(Approver.of("maria", "finance"));
        assertThat(mine.toString()).contains("waitingFor=Approver[name=maria, roles=[finance]]");
        assertThat(mine).isNotEqualTo(AgentListSuspendedRunsOptions.ALL);
    }
}
