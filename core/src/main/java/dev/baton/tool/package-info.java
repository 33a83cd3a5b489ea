/** Baton's tool API. Everything here is non-null unless annotated {@code @Nullable}. */
@NullMarked
package dev.baton.tool;

import org.jspecify.annotations.NullMarked;
