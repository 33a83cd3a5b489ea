package dev.baton.tck.decision;

import dev.baton.tck.support.StoreUnderTest;

/** Rules of {@code DecisionContract}: see the contract's nested class of this name. Not API. */
public abstract class Querying extends DecisionRules {
    protected Querying(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }
}
