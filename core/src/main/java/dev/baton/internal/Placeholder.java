package dev.baton.internal;

final class Placeholder {
    private Placeholder() {
    }
}
