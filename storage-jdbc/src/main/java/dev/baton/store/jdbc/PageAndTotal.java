package dev.baton.store.jdbc;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The shape of one statement that returns a page and, in an extra last column {@code total},
 * the number of matches before paging; every listing of the JDBC stores (runs, threads,
 * messages) uses it. One statement reads one snapshot of the data, so page and total agree
 * without a transaction.
 *
 * <ul>
 *   <li>PostgreSQL: {@code SELECT p.*, c.total FROM (SELECT COUNT(*) ...) c LEFT JOIN LATERAL
 *       (SELECT ... AND c.total > 0 ORDER BY ... LIMIT ...) p ON TRUE}. The page refers to the
 *       count, which makes it the inner side of a nested loop over the count's one row: its rows
 *       come out in its index order, it is not even started when nothing matches, and a page past
 *       the end still returns one row (page columns NULL) carrying the total.</li>
 *   <li>MySQL/MariaDB, H2, SQLite: {@code SELECT ..., (SELECT COUNT(*) ...) AS total FROM ...
 *       ORDER BY ... LIMIT ...}: the count is an uncorrelated scalar subquery, evaluated once.
 *       MariaDB has no {@code LATERAL}, and the other one-statement shapes (a join of two derived
 *       tables, a {@code UNION ALL}) either put the page, payloads included, in an internal
 *       temporary table or leave the order of the rows to chance. A page past the end returns no
 *       row, hence no total: the caller then asks for the count alone (a second statement, only in
 *       that case).</li>
 * </ul>
 */
final class PageAndTotal {
    private PageAndTotal() {
    }

    /**
     * The statement. Its parameters are those of {@code where} (the count), then those of
     * {@code where} again and of {@code pageWhere} (the page).
     *
     * @param columns   the select list of the page (expressions allowed, each ending in its name)
     * @param names     the output names of {@code columns}, comma-separated
     * @param from      the table
     * @param where     the filter, starting with {@code " WHERE "}
     * @param pageWhere more conditions for the page only (a cursor), starting with {@code " AND "}, or empty
     * @param order     the order, starting with {@code " ORDER BY "}
     * @param page      {@code " LIMIT n OFFSET m"}, or empty
     */
    static String sql(JdbcDialect dialect, String columns, String names, String from, String where, String pageWhere,
                      String order, String page) {
        return sql(dialect, columns, names, from, where, from + where, pageWhere, order, page);
    }

    /**
     * The statement, its count spelled as {@code countFrom} (what follows {@code SELECT COUNT(*) FROM}: the same
     * matches as {@code from} and {@code where}, read another way); its parameters come first.
     */
    static String sql(JdbcDialect dialect, String columns, String names, String from, String where, String countFrom,
                      String pageWhere, String order, String page) {
        if (dialect == JdbcDialect.POSTGRESQL) {
            String outer = Arrays.stream(names.split(",")).map(c -> "p." + c.strip()).collect(Collectors.joining(", "));
            return "SELECT " + outer + ", c.total FROM (SELECT COUNT(*) AS total FROM " + countFrom + ") c"
                    + " LEFT JOIN LATERAL (SELECT " + columns + " FROM " + from + where + pageWhere + " AND c.total > 0"
                    + order + page + ") p ON TRUE";
        }
        return "SELECT " + columns + ", (SELECT COUNT(*) FROM " + countFrom + ") AS total FROM " + from + where + pageWhere
                + order + page;
    }

    /** {@code " LIMIT n"} and {@code " OFFSET m"} when they apply; the numbers are checked by the caller, not user text. */
    static String page(@Nullable Integer limit, long offset) {
        return (limit != null ? " LIMIT " + limit : "") + (offset > 0 ? " OFFSET " + offset : "");
    }
}
