package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentRun;
import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The merge of per-resource pages on its own, over lists in memory that page as core pages (a full
 * page has a cursor naming its last run): every numbered page and every cursor walk equals the page
 * of one sorted list of all the resources' runs.
 */
class ResourceMergeTest {

    /** Runs per resource, each list in listing order; cursors are "after:<runId>". */
    static final class Lists implements ResourceMerge.Reader {
        final Map<String, List<AgentRun>> byResource = new LinkedHashMap<>();
        final Map<String, AgentRun> known = new LinkedHashMap<>();
        @Nullable String cursor;

        Lists add(String resourceId, String runId, Instant createdAt) {
            AgentRun run = new AgentRun(runId, RunStatus.SUSPENDED, null, resourceId, createdAt, List.of(), null, null, createdAt, null);
            known.put(runId, run);
            List<AgentRun> runs = byResource.computeIfAbsent(resourceId, k -> new ArrayList<>());
            runs.add(run);
            runs.sort(ResourceMerge.LISTING_ORDER);
            return this;
        }
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public AgentListSuspendedRunsResult firstRuns(String resourceId, int n) {
            reads.incrementAndGet();
            List<AgentRun> all = byResource.getOrDefault(resourceId, List.of());
            int start = 0;
            if (cursor != null) {
                AgentRun after = known.get(cursor.substring("after:".length()));
                // the keyset rule: every run after the cursor's position in listing order
                while (start < all.size() && ResourceMerge.LISTING_ORDER.compare(all.get(start), after) <= 0) start++;
            }
            List<AgentRun> page = all.subList(start, Math.min(start + n, all.size()));
            String next = page.size() == n && n > 0 ? "after:" + page.get(page.size() - 1).runId() : null;
            return new AgentListSuspendedRunsResult(page, all.size(), next);
        }

        List<AgentRun> all() {
            List<AgentRun> out = new ArrayList<>();
            byResource.values().forEach(out::addAll);
            out.sort(ResourceMerge.LISTING_ORDER);
            return out;
        }
    }

    static Lists seeded(long seed, int runs) {
        Random random = new Random(seed);
        Lists lists = new Lists();
        for (int i = 0; i < runs; i++) {
            String resource = "r" + random.nextInt(3);
            // few distinct times: many ties, broken by runId
            Instant at = Instant.parse("2026-06-01T09:00:00Z").plusSeconds(60L * random.nextInt(6));
            lists.add(resource, seed + "-" + i, at);
        }
        return lists;
    }

    static List<String> ids(List<AgentRun> runs) {
        return runs.stream().map(AgentRun::runId).toList();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void everyNumberedPageIsThePageOfOneSortedList(long seed) {
        Lists lists = seeded(seed, 23);
        List<AgentRun> all = lists.all();
        Set<String> resources = new TreeSet<>(lists.byResource.keySet());
        for (int perPage : new int[] {1, 2, 5, 7, 30}) {
            for (int page = 0; page * perPage <= all.size(); page++) {
                AgentListSuspendedRunsResult merged = ResourceMerge.page(resources, perPage, page, lists);
                List<AgentRun> expected = all.subList(Math.min(page * perPage, all.size()), Math.min((page + 1) * perPage, all.size()));
                assertThat(ids(merged.runs())).as("perPage %d page %d", perPage, page).isEqualTo(ids(expected));
                assertThat(merged.total()).isEqualTo(all.size());
                assertThat(merged.nextCursor() != null).as("a full page has a cursor").isEqualTo(expected.size() == perPage);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void aCursorWalkVisitsEveryRunOnceInOrder(long seed) {
        Lists lists = seeded(seed, 17);
        Set<String> resources = new TreeSet<>(lists.byResource.keySet());
        for (int perPage : new int[] {1, 3, 4}) {
            List<String> walked = new ArrayList<>();
            lists.cursor = null;
            AgentListSuspendedRunsResult page = ResourceMerge.page(resources, perPage, 0, lists);
            walked.addAll(ids(page.runs()));
            while (page.nextCursor() != null) {
                lists.cursor = page.nextCursor();
                page = ResourceMerge.page(resources, perPage, null, lists);
                walked.addAll(ids(page.runs()));
            }
            lists.cursor = null;
            assertThat(walked).as("perPage %d", perPage).isEqualTo(ids(lists.all()));
        }
    }

    /** a@6 and d@3 in r0, b@5 and c@4 in r1: the first page of two ends on b, before the end of r1's page. */
    static Lists twoResources() {
        Instant t = Instant.parse("2026-06-01T09:00:00Z");
        return new Lists().add("r0", "a", t.plusSeconds(6)).add("r0", "d", t.plusSeconds(3))
                .add("r1", "b", t.plusSeconds(5)).add("r1", "c", t.plusSeconds(4));
    }

    /** Like {@code lists}, but the first {@code times} reads of a resource's first run see another run there (it ended in between). */
    static ResourceMerge.Reader changing(Lists lists, int times) {
        AtomicInteger left = new AtomicInteger(times);
        return (resourceId, n) -> {
            AgentListSuspendedRunsResult found = lists.firstRuns(resourceId, n);
            if (n != 1 || left.getAndDecrement() <= 0) return found;
            AgentRun newer = lists.known.get("a");
            return new AgentListSuspendedRunsResult(List.of(newer), found.total(), "after:a");
        };
    }

    @Test
    void theNextCursorIsTheCursorOfThePagesLastRunReadFromItsResource() {
        Lists lists = twoResources();
        AgentListSuspendedRunsResult page = ResourceMerge.page(Set.of("r0", "r1"), 2, 0, lists);
        assertThat(ids(page.runs())).containsExactly("a", "b");
        assertThat(page.nextCursor()).isEqualTo("after:b");
        assertThat(lists.reads.get()).as("one query per resource, and one for the cursor").isEqualTo(3);
    }

    @Test
    void aPageIsReadAgainWhenTheLastRunsResourceChangedBetweenTheQueries() {
        Lists lists = twoResources();
        AgentListSuspendedRunsResult page = ResourceMerge.page(Set.of("r0", "r1"), 2, 0, changing(lists, 1));
        assertThat(ids(page.runs())).containsExactly("a", "b");
        assertThat(page.nextCursor()).isEqualTo("after:b");
        assertThat(lists.reads.get()).isEqualTo(6);
    }

    @Test
    void aPageWhoseRunsKeepChangingIsRefusedAfterTheLastAttempt() {
        Lists lists = twoResources();
        assertThatThrownBy(() -> ResourceMerge.page(Set.of("r0", "r1"), 2, 0, changing(lists, Integer.MAX_VALUE)))
                .isInstanceOf(ResourceMerge.ListingChangedException.class);
        assertThat(lists.reads.get()).isEqualTo(3 * ResourceMerge.ATTEMPTS);
        Problem p = Problem.from(new ResourceMerge.ListingChangedException(ResourceMerge.ATTEMPTS));
        assertThat(p.status()).isEqualTo(503);
        assertThat(p.type()).isEqualTo("urn:baton:problem:listing-changed");
        assertThat(p.headers()).containsEntry("Retry-After", "1");
    }
}
