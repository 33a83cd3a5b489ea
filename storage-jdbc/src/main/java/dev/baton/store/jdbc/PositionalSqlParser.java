package dev.baton.store.jdbc;

import org.jdbi.v3.core.statement.ParsedSql;
import org.jdbi.v3.core.statement.SqlParser;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The SQL parser of the store's own Jdbi handles ({@link JdbcAccess#call}): every statement the store writes binds
 * by position ({@code ?}) and names no parameter, so the text goes to the driver as it is, each {@code ?} outside a
 * quoted literal or identifier a positional parameter. Jdbi's default ({@code ColonPrefixSqlParser}) runs an ANTLR
 * lexer over each new text, and caches the result per {@code Jdbi}, that is per store: a listing's text changes with
 * its filters, page and decider labels, and parsing it was most of the CPU time of a listing (JFR, the listing TCK on
 * H2: 603 of its 962 samples in Jdbi's parser and template engine). The template engine is off for the same reason
 * (the store's SQL has no {@code <attribute>}s). PostgreSQL's {@code ::} casts are plain text here too.
 */
final class PositionalSqlParser implements SqlParser {
    static final PositionalSqlParser INSTANCE = new PositionalSqlParser();

    private PositionalSqlParser() {
    }

    @Override
    public ParsedSql parse(String sql, StatementContext ctx) {
        ParsedSql.Builder b = ParsedSql.builder();
        int from = 0;
        char quote = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;   // a doubled quote closes and reopens: the same text either way
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '?') {
                b.append(sql.substring(from, i)).appendPositionalParameter();
                from = i + 1;
            }
        }
        return b.append(sql.substring(from)).build();
    }

    @Override
    public String nameParameter(String rawName, StatementContext ctx) {
        return rawName;
    }
}
