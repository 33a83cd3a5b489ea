/** Baton's agent API. Everything here is non-null unless annotated {@code @Nullable}. */
@NullMarked
package dev.baton.agent;

import org.jspecify.annotations.NullMarked;
