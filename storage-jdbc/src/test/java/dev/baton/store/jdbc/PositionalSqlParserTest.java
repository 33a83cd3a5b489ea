package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.jdbi.v3.core.statement.ParsedSql;
import org.junit.jupiter.api.Test;

/** The store's SQL goes to the driver as written, each {@code ?} outside quotes a positional parameter. */
class PositionalSqlParserTest {

    @Test
    void everyQuestionMarkOutsideQuotesIsAPositionalParameterAndTheTextStaysAsWritten() {
        String sql = "SELECT '' AS payload, \"a?\", `b?` FROM t WHERE x = '?''?' AND deciders && ARRAY[?, ?]::text[] AND y <= ?";
        ParsedSql parsed = PositionalSqlParser.INSTANCE.parse(sql, null);
        assertThat(parsed.getSql()).isEqualTo(sql);
        assertThat(parsed.getParameters().isPositional()).isTrue();
        assertThat(parsed.getParameters().getParameterCount()).isEqualTo(3);
    }

    @Test
    void aTextWithoutParametersHasNone() {
        ParsedSql parsed = PositionalSqlParser.INSTANCE.parse("SELECT COUNT(*) FROM t WHERE s = 'SUSPENDED'", null);
        assertThat(parsed.getParameters().getParameterCount()).isZero();
    }
}
