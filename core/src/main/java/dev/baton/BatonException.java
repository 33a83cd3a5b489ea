package dev.baton;

/**
 * The root of every exception Baton throws on purpose. Unchecked.
 *
 * <p>Catch by category: each exception Baton throws is one of
 * <ul>
 *   <li>{@link NotFoundException}: what a call names does not exist (for the calling agent):
 *       {@link RunNotFoundException}, {@link ToolCallNotFoundException}, {@link ThreadNotFoundException};</li>
 *   <li>{@link ConflictException}: the call conflicts with what is stored now; re-read, then decide
 *       again: {@link RunNotSuspendedException}, {@link LeaseLostException},
 *       {@link ThreadAlreadyExistsException}, {@link ThreadOwnershipException};</li>
 *   <li>{@link InvalidRequestException}: the call itself is wrong and the same call will always fail:
 *       {@link ResumeMismatchException}, {@link UnknownToolException},
 *       {@code dev.baton.tool.InvalidToolInputException};</li>
 *   <li>{@link TransientException}: something outside Baton failed and a retry may help:
 *       {@link StorageException}, {@link ModelException} (see {@link ModelException#retryable()});</li>
 * </ul>
 * and three that stand alone: {@link SnapshotFormatException} (a stored run cannot be read),
 * {@link StoreProviderException} (no store for a URL) and {@link RunInterruptedException} (a run
 * stopped part-way and was kept).
 *
 * <p>The one exception outside this tree is {@link InvalidOptionException}, an
 * {@link IllegalArgumentException}: the contract (SPEC section 4, rule 6) promises an
 * {@code IllegalArgumentException} for bad listing options, and Java has single inheritance.
 *
 * <p>Every exception carries the ids it is about as accessors ({@code runId()},
 * {@code toolCallId()}, {@code toolName()}, {@code threadId()}, {@code agentId()} as relevant).
 * Instances are immutable once thrown and safe to share between threads.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class BatonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message and no cause.
     *
     * @param message what went wrong, naming the ids concerned and what to do next
     */
    public BatonException(String message) {
        super(message);
    }

    /**
     * An exception with a message and a cause.
     *
     * @param message what went wrong, naming the ids concerned and what to do next
     * @param cause   what caused it, or null
     */
    public BatonException(String message, @org.jspecify.annotations.Nullable Throwable cause) {
        super(message, cause);
    }
}
