package dev.baton.model;

import java.util.Locale;

/**
 * Who speaks in a {@link Message}: the user, the model (assistant), or a tool's result. Stored as
 * its {@link #wireName()} (for example in {@code StoredMessage.role}). A closed set: new kinds of
 * message would be a new major version.
 *
 * <p>Immutable and thread-safe.
 */
public enum Role {
    /** What the user said: {@link Message.User}. */
    USER("user"),
    /** What the model answered: {@link Message.Assistant}. */
    ASSISTANT("assistant"),
    /** A tool's result given back to the model: {@link Message.ToolResult}. */
    TOOL("tool");

    private final String wireName;

    Role(String wireName) {
        this.wireName = wireName;
    }

    /** {@return the stored and transmitted name: {@code user}, {@code assistant} or {@code tool}} */
    public String wireName() {
        return wireName;
    }

    /**
     * The role with this wire name.
     *
     * @param wireName {@code user}, {@code assistant} or {@code tool}
     * @return the role
     * @throws IllegalArgumentException for any other name
     */
    public static Role fromWireName(String wireName) {
        for (Role r : values()) if (r.wireName.equals(wireName)) return r;
        throw new IllegalArgumentException("no message role '" + wireName + "'; roles: user, assistant, tool");
    }

    /** {@return the wire name} */
    @Override
    public String toString() {
        return wireName.toLowerCase(Locale.ROOT);
    }
}
