package dev.baton.agent;

import dev.baton.internal.FreeText;
import java.util.Objects;

/**
 * What {@link Agent#expireDueRuns(int)} does with a run whose wait expired (a call waited longer than
 * its wait timeout: the tool's {@code waitTimeout}, the run's {@link RunOptions#waitTimeout()}, or
 * the agent's {@link AgentBuilder#waitTimeout}).
 *
 * <ul>
 *   <li>{@link #keep()} (the default): nothing; the run waits on. Nothing changes for agents that
 *       never set a policy.</li>
 *   <li>{@link #decline(String)}: every expired call is declined with {@code reason} (a call waiting
 *       for data gets it as an error): the tool does not run, the model is told, the run goes on.</li>
 *   <li>{@link #cancel(String)}: the run is cancelled, as {@link Agent#cancelRun(String, String)} does.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 *
 * @param action what to do
 * @param reason what the model (decline) or the cancelled run's event (cancel) is told
 */
public record ExpiryPolicy(Action action, String reason) {

    /** What an expiry does. */
    public enum Action {
        /** Nothing: the run waits on. */
        KEEP,
        /** Decline the expired calls; the run goes on. */
        DECLINE,
        /** Cancel the run. */
        CANCEL
    }

    /**
     * Creates the record.
     *
     * @param action what to do
     * @param reason what the model (decline) or the cancelled run's event (cancel) is told
     * @throws dev.baton.InvalidOptionException ({@code reason}) the reason holds NUL or an unpaired surrogate
     */
    public ExpiryPolicy {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(reason, "reason");
        FreeText.check("reason", reason);
    }

    /**
     * The default: expired runs keep waiting.
     *
     * @return the policy
     */
    public static ExpiryPolicy keep() {
        return new ExpiryPolicy(Action.KEEP, "");
    }

    /**
     * Expired calls are declined; the model sees {@code reason}.
     *
     * @param reason what the model is told
     * @return the policy
     */
    public static ExpiryPolicy decline(String reason) {
        return new ExpiryPolicy(Action.DECLINE, reason);
    }

    /**
     * Expired runs are cancelled with {@code reason}.
     *
     * @param reason what the cancelled event says
     * @return the policy
     */
    public static ExpiryPolicy cancel(String reason) {
        return new ExpiryPolicy(Action.CANCEL, reason);
    }
}
