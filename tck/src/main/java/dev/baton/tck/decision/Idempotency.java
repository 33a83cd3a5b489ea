package dev.baton.tck.decision;

import dev.baton.tck.support.StoreUnderTest;

/** Rules of {@code DecisionContract}: see the contract's nested class of this name. Not API. */
public abstract class Idempotency extends DecisionRules {
    protected Idempotency(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }
}
