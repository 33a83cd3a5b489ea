package dev.baton;

/**
 * A run named a memory thread that belongs to another resource: a thread is owned by the resource
 * that created it, and only runs of that resource read or write it. Nothing was stored.
 */
public class ThreadOwnershipException extends BatonException {
    private static final long serialVersionUID = 1L;
    private final String threadId;

    public ThreadOwnershipException(String threadId, String owner, String asked) {
        super("Thread '" + threadId + "' belongs to resource " + quote(owner) + ", not to " + quote(asked)
                + ": a run may use only a thread of its own resource. Nothing was stored.");
        this.threadId = threadId;
    }

    private static String quote(String s) {
        return s == null ? "(none)" : "'" + s + "'";
    }

    public String threadId() {
        return threadId;
    }
}
