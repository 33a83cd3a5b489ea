package dev.baton.notify;

import dev.baton.agent.Agent;
import dev.baton.agent.NotificationEvent;
import dev.baton.agent.NotificationPolicy;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * A separate JVM for {@link NotifierProcessTest}, driven by its arguments: {@code suspend} stores a
 * waiting run and says {@code stored <runId>} (then waits to be killed), {@code hang} claims the due
 * notification and says {@code delivering <id>} from a channel that never returns, {@code deliver}
 * runs a notifier with a webhook channel until its input ends.
 */
public final class NotifyWorker {
    private NotifyWorker() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String agentId = args[1];
        String mode = args[2];
        try (SnapshotStore store = SnapshotStores.open(url);
             Agent agent = TestRuns.refunds(agentId, store, Clock.systemUTC(), NotificationPolicy.of(NotificationEvent.SUSPENDED)).build()) {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            switch (mode) {
                case "suspend" -> {
                    String runId = TestRuns.waitingRun(agent, "bob");
                    say("stored " + runId);
                    in.readLine();
                }
                case "hang" -> {
                    NotificationChannel hangs = n -> {
                        say("delivering " + n.id());
                        try {
                            Thread.sleep(Long.MAX_VALUE);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return DeliveryResult.retryable("interrupted");
                    };
                    Notifier n = Notifier.builder().agents(agent).channels(hangs).claimTimeout(Duration.ofSeconds(1)).build();
                    say("ready");
                    n.pollOnce();
                }
                case "deliver" -> {
                    try (Notifier n = Notifier.builder().agents(agent).pollInterval(Duration.ofMillis(100))
                            .channels(WebhookChannel.builder(URI.create(args[3])).secret(args[4]).build()).build().start()) {
                        say("ready");
                        in.readLine();
                        say("stats " + n.stats().sent());
                    }
                }
                default -> throw new IllegalArgumentException(mode);
            }
        }
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
