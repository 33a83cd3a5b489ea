package dev.baton.tool;

import dev.baton.InvalidRequestException;
import java.util.List;
import java.util.Objects;

/**
 * A model called a tool with arguments that do not match the tool's input type. Thrown by a
 * typed tool's executor before the user's code runs, it becomes a {@code tool-error}: the model
 * sees the message, which names each wrong field, and can call the tool again.
 *
 * <p>Example message: {@code Invalid arguments for bookFlight: field 'to' is required; field
 * 'passengers' must be an integer, got "two"}. Resume data that breaks a tool's
 * {@linkplain ToolBuilder#resumeSchema resume schema} is refused the same way ({@code Invalid resume
 * data for askPassportNumber: field 'passportNumber' is required}) before anything changes.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class InvalidToolInputException extends InvalidRequestException {
    private static final long serialVersionUID = 1L;

    /** The toolName this exception is about (serialized with it). */
    private final String toolName;
    /** The problems this exception is about (serialized with it). */
    private final List<String> problems;

    /**
     * Arguments that do not match a tool's input type.
     *
     * @param toolName the tool that was called
     * @param problems what is wrong, one entry per field, e.g. {@code field 'to' is required}
     */
    public InvalidToolInputException(String toolName, List<String> problems) {
        this("arguments", toolName, problems);
    }

    /** What {@code what} ("arguments", "resume data") breaks of the tool's schema. */
    InvalidToolInputException(String what, String toolName, List<String> problems) {
        super("Invalid " + what + " for " + toolName + ": " + String.join("; ", problems), null);
        this.toolName = Objects.requireNonNull(toolName, "toolName");
        this.problems = List.copyOf(problems);
    }

    /** {@return the tool that was called} */
    public String toolName() {
        return toolName;
    }

    /** {@return what is wrong, one entry per field} */
    public List<String> problems() {
        return problems;
    }
}
