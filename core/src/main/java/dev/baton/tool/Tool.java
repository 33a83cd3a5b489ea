package dev.baton.tool;

/** Placeholder, replaced by the tool API. */
public final class Tool {
    private Tool() {
    }
}
