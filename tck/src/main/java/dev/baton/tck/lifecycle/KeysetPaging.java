package dev.baton.tck.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOptions;
import dev.baton.tck.support.StoreUnderTest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/**
 * The agent's listing walked with a cursor: page by page in order, bad cursors refused naming the
 * cursor, and stable while runs suspend and are approved during the walk.
 */
public abstract class KeysetPaging extends LifecycleRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected KeysetPaging(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aCursorWalksTheListingPageByPageInOrder() {
        Agent agent = agent();
        for (int i = 0; i < 7; i++) suspend(agent);
        List<String> all = agent.listSuspendedRuns().runs().stream().map(AgentRun::runId).toList();
        AgentListSuspendedRunsResult first = agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
                .perPage(3).page(0).build());
        List<String> walked = new ArrayList<>(first.runs().stream().map(AgentRun::runId).toList());
        String cursor = first.nextCursor();
        while (cursor != null) {
            AgentListSuspendedRunsResult page = agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
                    .perPage(3).cursor(cursor).build());
            assertThat(page.total()).isEqualTo(7);
            walked.addAll(page.runs().stream().map(AgentRun::runId).toList());
            cursor = page.nextCursor();
        }
        assertThat(walked).isEqualTo(all);
    }

    @Test
    void aBadCursorOrACursorWithAPageIsRefusedNamingTheCursor() {
        Agent agent = agent();
        assertThatThrownBy(() -> agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().perPage(3)
                .cursor("nonsense").build())).isInstanceOf(InvalidOptionException.class).hasMessageContaining("cursor");
        assertThatThrownBy(() -> agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().perPage(3).page(1)
                .cursor("c1.x").build())).isInstanceOf(InvalidOptionException.class).hasMessageContaining("cursor");
        assertThatThrownBy(() -> agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
                .cursor("c1.x").build())).isInstanceOf(InvalidOptionException.class).hasMessageContaining("perPage");
    }

    /** Runs suspend and are approved while a reader walks the pages: no run that stayed is skipped or repeated. */
    @RepeatedTest(3)
    void cursorPagingIsStableWhileRunsComeAndGo(RepetitionInfo repetition) throws Exception {
        Random random = new Random(777L + repetition.getCurrentRepetition());
        Agent agent = agent();
        List<String> stable = new ArrayList<>();
        for (int i = 0; i < 25; i++) stable.add(suspend(agent).runId());
        AtomicBoolean walking = new AtomicBoolean(true);
        Agent writer = agentBuilder(agentId).instanceId("writer").build();
        long seed = random.nextLong();
        Thread churn = new Thread(() -> {
            Random r = new Random(seed);
            List<AgentResult> mine = new ArrayList<>();
            for (int n = 0; walking.get() && n < 60; n++) {
                mine.add(writer.generate("Book a flight", RunOptions.DEFAULT));
                if (!mine.isEmpty() && r.nextBoolean()) {
                    AgentResult gone = mine.remove(r.nextInt(mine.size()));
                    writer.approveToolCall(gone.runId(), callId(gone)).result();
                }
            }
        });
        churn.start();
        List<String> seen = new ArrayList<>();
        String cursor = null;
        try {
            do {
                AgentListSuspendedRunsOptions.Builder o = AgentListSuspendedRunsOptions.builder().perPage(1 + random.nextInt(5));
                AgentListSuspendedRunsResult page = agent.listSuspendedRuns(cursor == null ? o.page(0).build()
                        : o.cursor(cursor).build());
                page.runs().forEach(run -> seen.add(run.runId()));
                cursor = page.nextCursor();
            } while (cursor != null);
        } finally {
            walking.set(false);
            churn.join(60_000);
        }
        assertThat(new HashSet<>(seen)).as("no run is repeated").hasSameSizeAs(seen);
        assertThat(seen).as("no run that stayed suspended is skipped").containsAll(stable);
    }
}
