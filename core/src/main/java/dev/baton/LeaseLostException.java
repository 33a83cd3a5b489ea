package dev.baton;

/**
 * This process held a run's claim, but its lease expired and another caller took the run
 * over (or the run was removed). This process stops working on the run; the new holder goes on.
 */
public class LeaseLostException extends BatonException {
    private static final long serialVersionUID = 1L;

    public LeaseLostException(String runId) {
        super("Lost the claim on run '" + runId + "': its lease expired and another caller took it over,"
                + " or it was removed. This process stopped working on it.");
    }

    public LeaseLostException(String runId, String detail) {
        super("Lost the claim on run '" + runId + "': " + detail);
    }
}
