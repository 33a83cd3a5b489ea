/**
 * Baton notifications: {@code dev.baton.notify.Notifier} delivers the notifications the store keeps
 * due (the outbox) to {@code NotificationChannel}s: a signed webhook, a Slack incoming webhook, or
 * your own. Micrometer is optional.
 */
module dev.baton.notify {
    requires transitive dev.baton.core;
    requires java.net.http;
    requires org.slf4j;
    requires static micrometer.core;
    requires static transitive org.jspecify;

    exports dev.baton.notify;
}
