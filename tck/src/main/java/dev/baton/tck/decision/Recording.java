package dev.baton.tck.decision;

import dev.baton.tck.support.StoreUnderTest;

/** Rules of {@code DecisionContract}: see the contract's nested class of this name. Not API. */
public abstract class Recording extends DecisionRules {
    protected Recording(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }
}
