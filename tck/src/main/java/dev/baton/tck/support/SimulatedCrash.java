package dev.baton.tck;

/**
 * Stands for the process dying: an {@link Error}, so no {@code catch (Exception)} in Baton or in a
 * tool stops it, and nothing runs after it but {@code finally} blocks, as after {@code kill -9}.
 */
public final class SimulatedCrash extends Error {
    private static final long serialVersionUID = 1L;

    public SimulatedCrash(String message) {
        super(message);
    }
}
