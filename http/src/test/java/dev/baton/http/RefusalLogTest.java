package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Refused credentials are logged at INFO with their reason, at most once per interval; the rest at DEBUG. */
class RefusalLogTest {

    @Test
    void theFirstRefusalOfAnIntervalGoesToInfoAndTheRestToDebug() {
        AtomicLong now = new AtomicLong(1_000);
        RefusalLog log = new RefusalLog(LoggerFactory.getLogger(RefusalLogTest.class), Duration.ofSeconds(10), now::get);

        assertThat(log.refused("bearer JWT refused", "expired")).as("the first").isTrue();
        for (int i = 0; i < 50; i++) assertThat(log.refused("bearer JWT refused", "expired")).as("a flood").isFalse();
        now.addAndGet(Duration.ofSeconds(9).toNanos());
        assertThat(log.refused("bearer JWT refused", "another issuer")).as("within the interval").isFalse();
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(log.refused("bearer JWT refused", "another issuer")).as("the interval passed").isTrue();
        assertThat(log.refused("bearer JWT refused", "another issuer")).isFalse();
    }
}
