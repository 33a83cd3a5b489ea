package dev.baton;

/**
 * The call was resumed the wrong way: approving or declining a call that waits for resume
 * data, or passing resume data to a call that waits for an approval. Nothing is changed.
 */
public class ResumeMismatchException extends BatonException {
    private static final long serialVersionUID = 1L;

    public ResumeMismatchException(String message) {
        super(message);
    }
}
