package dev.baton.notify;

/**
 * Where notifications go: a webhook ({@link WebhookChannel}), Slack ({@link SlackChannel}), or your
 * own (mail through your application's mailer, a pager, a queue).
 *
 * <p>{@link #deliver} is called from the {@link Notifier}'s thread, one notification at a time, and
 * should return within a bounded time (use timeouts): a call that hangs holds the notifier. An
 * exception it throws counts as a {@link DeliveryResult#retryable retryable} failure. The same
 * notification may be delivered more than once (after a crash, a lapsed claim, or a retry because
 * another channel failed): receivers drop duplicates by {@link Notification#id()}.
 *
 * <pre>{@code
 * NotificationChannel mail = n -> {
 *     mailer.send("approvals@example.com", "A run waits", n.text() + "\n" + n.link());
 *     return DeliveryResult.delivered();
 * };
 * }</pre>
 */
@FunctionalInterface
public interface NotificationChannel {

    /**
     * Delivers one notification.
     *
     * @param notification what to deliver
     * @return delivered, or a retryable or permanent failure
     */
    DeliveryResult deliver(Notification notification);

    /** {@return this channel's name, in logs, dead letters and metric tags; the class's simple name by default} */
    default String name() {
        String simple = getClass().getSimpleName();
        return simple.isEmpty() ? "channel" : simple;
    }
}
