/**
 * Notifications that a run waits for a person, delivered at least once.
 *
 * <p>The store is the outbox: an agent with a {@code NotificationPolicy} stores each due
 * notification in the run's own row, in the same write as the wait. A {@link dev.baton.notify.Notifier}
 * (any instance, any process) finds the due ones, claims each, delivers it to every
 * {@link dev.baton.notify.NotificationChannel} ({@link dev.baton.notify.WebhookChannel},
 * {@link dev.baton.notify.SlackChannel}, your own), retries with backoff and gives up into a dead
 * letter. Receivers check webhooks with {@link dev.baton.notify.WebhookVerifier} and drop duplicates
 * by {@link dev.baton.notify.Notification#id()}. See docs/notifications.md.
 */
@NullMarked
package dev.baton.notify;

import org.jspecify.annotations.NullMarked;
