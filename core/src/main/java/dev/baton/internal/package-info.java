/** Implementation of the run loop and snapshot codec. Not API: may change in any release. */
@NullMarked
package dev.baton.internal;

import org.jspecify.annotations.NullMarked;
