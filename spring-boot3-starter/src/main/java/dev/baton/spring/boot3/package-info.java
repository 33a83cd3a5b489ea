/**
 * What Spring Boot 3.5 needs beside {@code baton-spring-boot-starter}: the store's Actuator health
 * indicator and Tomcat's encoded-slash setting, written against Spring Boot 3's packages (Boot 4
 * moved them). Every class here is guarded by a class only Spring Boot 3 has.
 */
@NullMarked
package dev.baton.spring.boot3;

import org.jspecify.annotations.NullMarked;
