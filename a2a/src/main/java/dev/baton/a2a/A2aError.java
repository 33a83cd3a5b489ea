package dev.baton.a2a;

import dev.baton.ConflictException;
import dev.baton.InvalidOptionException;
import dev.baton.InvalidRequestException;
import dev.baton.NotFoundException;

/** A JSON-RPC error of the A2A protocol, with its code (protocol 0.3.0's codes). */
final class A2aError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final int PARSE = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL = -32603;
    static final int TASK_NOT_FOUND = -32001;
    static final int TASK_NOT_CANCELABLE = -32002;
    static final int PUSH_NOT_SUPPORTED = -32003;
    static final int UNSUPPORTED = -32004;

    final int code;

    A2aError(int code, String message) {
        super(message);
        this.code = code;
    }

    static A2aError taskNotFound(String taskId) {
        return new A2aError(TASK_NOT_FOUND, "Task not found: " + taskId);
    }

    static A2aError invalidParams(String message) {
        return new A2aError(INVALID_PARAMS, message);
    }

    /** Baton's exceptions as A2A errors: not found, or the caller's mistake (named in the message). */
    static A2aError of(RuntimeException e, String taskId) {
        if (e instanceof A2aError a) return a;
        if (e instanceof NotFoundException) return taskNotFound(taskId);
        // the agent's approver rules refuse this caller: nothing changed; the message names the rule
        if (e instanceof dev.baton.NotAnApproverException) return invalidParams(e.getMessage());
        if (e instanceof InvalidRequestException || e instanceof InvalidOptionException || e instanceof ConflictException
                || e instanceof IllegalArgumentException) {
            return invalidParams(e.getMessage());
        }
        return new A2aError(INTERNAL, "internal error (see the server's log)");
    }
}
