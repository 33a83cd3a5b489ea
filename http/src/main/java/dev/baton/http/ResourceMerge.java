package dev.baton.http;

import dev.baton.BatonException;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One page over several resources, exactly as one query over all of them would page it, from
 * per-resource pages that each begin at the same start (the cursor, or the first run). Each
 * resource's runs are read in listing order, merged by (createdAt, runId) descending, and cut to
 * the page; the totals add up, as a run has one resource. The next cursor must name the page's last
 * run: it is core's own cursor of the resource that run came from, read with a page that ends on it
 * (one more query unless that resource's page ended there already). If that resource's runs changed
 * between the queries, the page is read again, at most {@link #ATTEMPTS} times.
 *
 * <p>Knows no HTTP: it reads pages through a {@link Reader} and answers a page or throws.
 */
final class ResourceMerge {
    /** How often a merged listing is read again when the runs changed between its queries. */
    static final int ATTEMPTS = 5;

    /** Listing order: newest creation first, ties by runId descending, as core and every store order them. */
    static final Comparator<AgentRun> LISTING_ORDER = Comparator.comparing(AgentRun::createdAt).reversed()
            .thenComparing(AgentRun::runId, Comparator.reverseOrder());

    /** Reads one resource's runs. */
    @FunctionalInterface
    interface Reader {
        /** The first {@code n} runs of {@code resourceId} from the listing's start (after the cursor, or from the first run). */
        AgentListSuspendedRunsResult firstRuns(String resourceId, int n);
    }

    /** The runs changed between the queries of a page, {@link #attempts()} times in a row. */
    static final class ListingChangedException extends BatonException {
        private static final long serialVersionUID = 1L;
        private final int attempts;

        ListingChangedException(int attempts) {
            super("the runs changed while a page over several resources was read, " + attempts + " times in a row");
            this.attempts = attempts;
        }

        int attempts() {
            return attempts;
        }
    }

    private ResourceMerge() {
    }

    /**
     * How many runs per resource a page needs: {@code (page + 1) * perPage} for a numbered page,
     * {@code perPage} after a cursor (null page).
     */
    static long depth(int perPage, @Nullable Integer page) {
        return page == null ? perPage : ((long) page + 1) * perPage;
    }

    /**
     * The page.
     *
     * @param page the zero-based page, or null when the listing continues after a cursor (the reader's start)
     */
    static AgentListSuspendedRunsResult page(Set<String> resources, int perPage, @Nullable Integer page, Reader reader) {
        int depth = Math.toIntExact(depth(perPage, page));
        int from = page == null ? 0 : page * perPage;
        for (int attempt = 1; ; attempt++) {
            AgentListSuspendedRunsResult merged = mergeOnce(resources, from, perPage, depth, reader);
            if (merged != null) return merged;
            if (attempt == ATTEMPTS) throw new ListingChangedException(ATTEMPTS);
        }
    }

    /** A run of a merged listing, with where it came from. */
    private record Source(AgentRun run, String resourceId, AgentListSuspendedRunsResult of, int index) {
    }

    /** The merged page, or null if a resource's runs changed between the queries (read it again). */
    private static @Nullable AgentListSuspendedRunsResult mergeOnce(Set<String> resources, int from, int perPage, int depth,
                                                                  Reader reader) {
        List<Source> all = new ArrayList<>();
        long total = 0;
        for (String resourceId : resources) {
            AgentListSuspendedRunsResult found = reader.firstRuns(resourceId, depth);
            total += found.total();
            for (int i = 0; i < found.runs().size(); i++) all.add(new Source(found.runs().get(i), resourceId, found, i));
        }
        all.sort(Comparator.comparing(Source::run, LISTING_ORDER));
        List<Source> cut = all.subList(Math.min(from, all.size()), Math.min(from + perPage, all.size()));
        String next = null;
        if (cut.size() == perPage) {
            // a full page has a next cursor, as core's pages do: the position of its last run
            Source last = cut.get(cut.size() - 1);
            if (last.index() == last.of().runs().size() - 1 && last.of().nextCursor() != null) {
                next = last.of().nextCursor();
            } else {
                AgentListSuspendedRunsResult upTo = reader.firstRuns(last.resourceId(), last.index() + 1);
                List<AgentRun> runs = upTo.runs();
                if (runs.size() != last.index() + 1 || !runs.get(last.index()).runId().equals(last.run().runId())
                        || upTo.nextCursor() == null) {
                    return null;
                }
                next = upTo.nextCursor();
            }
        }
        return new AgentListSuspendedRunsResult(cut.stream().map(Source::run).toList(), total, next);
    }
}
