package dev.baton.tck.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.model.Message;
import dev.baton.tck.support.StoreUnderTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs saving to one thread at the same time lose nothing.
 */
public abstract class Concurrency extends MemoryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Concurrency(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void runsSavingToOneThreadAtTheSameTimeLoseNothing() throws Exception {
        Agent agent = agent();
        agent.generate("hello", inThread());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int n = i;
                runs.add(pool.submit(() -> {
                    start.await();
                    for (int k = 0; k < 5; k++) agent.generate("hi " + n + "-" + k, inThread());
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : runs) f.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        List<Message> saved = threadMessages(agent);
        assertThat(saved).hasSize(2 + 4 * 5 * 2);
        for (int n = 0; n < 4; n++) {
            for (int k = 0; k < 5; k++) assertThat(saved).contains(new Message.User("hi " + n + "-" + k));
        }
    }
}
