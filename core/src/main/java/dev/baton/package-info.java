/** Baton's exceptions. Every one extends {@link dev.baton.BatonException}, except {@link dev.baton.InvalidOptionException}. */
@NullMarked
package dev.baton;

import org.jspecify.annotations.NullMarked;
