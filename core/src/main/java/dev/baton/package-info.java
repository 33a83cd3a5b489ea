/**
 * Baton's exceptions. Every one extends {@link dev.baton.BatonException} and falls in a category
 * ({@link dev.baton.NotFoundException}, {@link dev.baton.ConflictException},
 * {@link dev.baton.InvalidRequestException}, {@link dev.baton.TransientException}) or stands alone;
 * the one exception outside the tree is {@link dev.baton.InvalidOptionException}, an
 * {@link java.lang.IllegalArgumentException} (see {@link dev.baton.BatonException}).
 */
@NullMarked
package dev.baton;

import org.jspecify.annotations.NullMarked;
