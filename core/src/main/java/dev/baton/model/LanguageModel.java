package dev.baton.model;

/** Placeholder, replaced by the model API. */
public interface LanguageModel {
}
