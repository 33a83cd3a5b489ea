package dev.baton.tck.support;

/**
 * Stands for the process dying: an {@link Error}, so no {@code catch (Exception)} in Baton or in a
 * tool stops it, and nothing runs after it but {@code finally} blocks, as after {@code kill -9}.
 * {@link FaultyStore} throws it; the TCK's recovery tests expect it. Not API.
 */
public final class SimulatedCrash extends Error {
    private static final long serialVersionUID = 1L;

    /**
     * A crash, saying where the process died.
     *
     * @param message where and why
     */
    public SimulatedCrash(String message) {
        super(message);
    }
}
