package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link RunClaim#half} against {@link Duration#dividedBy(long)}, on seeded random durations. */
class RunClaimTest {
    @Test
    void halfIsDividedByTwoOnRandomDurations() {
        SplittableRandom r = new SplittableRandom(39);
        for (int i = 0; i < 100_000; i++) {
            Duration d = switch (r.nextInt(4)) {
                case 0 -> Duration.ofMillis(r.nextLong(1, 10_000_000L));
                case 1 -> Duration.ofNanos(r.nextLong(1, Long.MAX_VALUE));
                case 2 -> Duration.ofSeconds(r.nextLong(0, Long.MAX_VALUE), r.nextInt(1_000_000_000));
                default -> Duration.ofSeconds(r.nextLong(Long.MIN_VALUE, 0), r.nextInt(1_000_000_000));
            };
            assertThat(RunClaim.half(d)).as("%s", d).isEqualTo(d.dividedBy(2));
        }
        for (Duration d : new Duration[] {Duration.ofNanos(1), Duration.ofSeconds(1), Duration.ofSeconds(3, 1), Duration.ofSeconds(60),
                Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), Duration.ofSeconds(Long.MIN_VALUE), Duration.ZERO}) {
            assertThat(RunClaim.half(d)).as("%s", d).isEqualTo(d.dividedBy(2));
        }
    }
}
