/** Baton's model API. Everything here is non-null unless annotated {@code @Nullable}. */
@NullMarked
package dev.baton.model;

import org.jspecify.annotations.NullMarked;
