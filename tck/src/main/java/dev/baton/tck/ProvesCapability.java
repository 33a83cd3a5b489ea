package dev.baton.tck;

import dev.baton.store.StoreCapability;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a contract test (or a {@code @Nested} group of them) as the proof of a
 * {@link StoreCapability}. A test without it proves a duty every store has. The
 * {@link CertificationListener} reports a capability as proven for a store only when at least one
 * test marked with it ran against that store and none failed; such tests are skipped for stores
 * that do not declare the capability.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ProvesCapability {
    /**
     * The capability the marked tests prove.
     *
     * @return the capability
     */
    StoreCapability value();
}
