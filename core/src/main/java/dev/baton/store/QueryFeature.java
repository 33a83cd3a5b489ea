package dev.baton.store;

/**
 * What a {@link RunQuery} may ask of a store, in groups a store declares in
 * {@link SnapshotStore#queryFeatures()}. Core refuses, before it calls the store, a query that uses
 * a feature the store did not declare, so a filter added to {@code RunQuery} in a later release is
 * never silently ignored by a store written before it.
 *
 * <p>Growth: later minor releases add constants here (a new filter, a new order); a store declares
 * one only once it implements it, and the TCK tests each one it declares.
 *
 * <p>Immutable and thread-safe.
 */
public enum QueryFeature {
    /**
     * Everything {@link RunQuery} offers in 0.1.0, which every store must implement: {@code agentId},
     * {@code status} (effective, as of {@code now}), {@code threadId}, {@code resourceId},
     * {@code createdFrom} / {@code createdTo}, the listing order, {@code offset} / {@code limit},
     * count-only ({@code limit == 0}), keyset paging ({@code after}) and {@code withPayload}.
     */
    BASELINE,

    /**
     * The deciders filter of {@link RunQuery}: {@link RunQuery#deciders()}, matched against the labels a run is
     * stored with ({@link RunSnapshot#deciders()}) by the rule of {@link RunQuery#matchesDeciders}; the total
     * and paging of a filtered query work as for any other filter.
     */
    DECIDERS
}
