package dev.baton.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.cluster.SlotHash;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedisKeysTest {
    private static final List<String> ODD = List.of("{", "}", "{}", "a{b}c", "}{", "x:y", "*?[]", "with space", "caf\u00e9 \ud83d\ude00", "");
    private final RedisKeys keys = new RedisKeys("app");

    @Test
    void everyKeyOfOneAgentIsInTheAgentsSlotWhateverItsIds() {
        for (String agent : ODD) {
            if (agent.isEmpty()) continue;
            int slot = SlotHash.getSlot(keys.agentBase(agent));
            for (String run : ODD) {
                assertThat(SlotHash.getSlot(keys.run(agent, run))).isEqualTo(slot);
            }
            assertThat(SlotHash.getSlot(keys.allIndex(agent))).isEqualTo(slot);
            assertThat(SlotHash.getSlot(keys.agentBase(agent) + "sus:tr:" + RedisKeys.hex("{t}") + ":" + RedisKeys.hex("r}")))
                    .isEqualTo(slot);
        }
    }

    @Test
    void theDeadlineSetOfAnAgentIsInTheAgentsSlot() {
        for (String agent : ODD) {
            if (agent.isEmpty()) continue;
            assertThat(SlotHash.getSlot(keys.dueIndex(agent))).isEqualTo(SlotHash.getSlot(keys.agentBase(agent)));
        }
    }

    @Test
    void everyMemoryKeyOfOneResourceIsInOneSlotAndAnOwnerlessThreadHasItsOwn() {
        for (String resource : ODD) {
            String base = keys.memoryBase(RedisKeys.owner(resource, "t"));
            int slot = SlotHash.getSlot(base + "threads");
            for (String thread : ODD) {
                if (thread.isEmpty()) continue;
                assertThat(RedisKeys.owner(resource, thread)).isEqualTo(RedisKeys.owner(resource, "other"));
                for (String kind : List.of("th:", "msg:", "ids:")) {
                    assertThat(SlotHash.getSlot(base + kind + RedisKeys.hex(thread))).isEqualTo(slot);
                }
            }
        }
        assertThat(RedisKeys.owner(null, "a")).isNotEqualTo(RedisKeys.owner(null, "b"));
        assertThat(RedisKeys.owner(null, "a")).isNotEqualTo(RedisKeys.owner("a", "a"));
        assertThat(keys.threadLookup("t")).isNotEqualTo(keys.lookup("t"));
    }

    @Test
    void differentIdsNeverShareAKey() {
        Set<String> seen = new HashSet<>();
        for (String agent : ODD) for (String run : ODD) assertThat(seen.add(keys.run(agent, run))).isTrue();
        for (String run : ODD) assertThat(seen.add(keys.lookup(run))).isTrue();
        // the parts cannot be re-split differently: "a:b" + "c" is not "a" + "b:c"
        assertThat(keys.run("a:b", "c")).isNotEqualTo(keys.run("a", "b:c"));
    }

    @Test
    void aPrefixMustNotBreakTheHashTag() {
        assertThatThrownBy(() -> new RedisKeys("a{")).hasMessageContaining("keyPrefix");
        assertThatThrownBy(() -> new RedisKeys("")).hasMessageContaining("keyPrefix");
    }
}
