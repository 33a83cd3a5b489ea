/**
 * The rules of {@link dev.baton.tck.DecisionContract}, one group per class, each the chapter of the
 * specification its name says. Extend the contract, never these classes: they are public only so
 * that the contract's {@code @Nested} classes can extend them, and they are not API (a release may
 * rename, split or merge them; the rule names, their test methods, stay).
 */
package dev.baton.tck.decision;
