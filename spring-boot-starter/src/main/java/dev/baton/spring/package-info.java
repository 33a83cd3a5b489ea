/**
 * Baton's Spring Boot starter: auto-configuration of the {@code SnapshotStore}, {@link dev.baton.spring.BatonAgents}
 * to build agent beans, the HTTP API and inbox in Spring MVC, an Actuator health indicator, and Micrometer
 * meters and observations. See {@code docs/spring-boot.md}.
 */
@NullMarked
package dev.baton.spring;

import org.jspecify.annotations.NullMarked;
