package dev.baton.notify;

import dev.baton.BatonException;

/**
 * A webhook that {@link WebhookVerifier} refused: a header is missing, its timestamp is outside the
 * tolerance (a replay, or a clock far off), or no signature matches. Answer the request with 400
 * or 401 and do nothing with it.
 */
public class WebhookVerificationException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The exception.
     *
     * @param message why the webhook was refused
     */
    public WebhookVerificationException(String message) {
        super(message);
    }
}
