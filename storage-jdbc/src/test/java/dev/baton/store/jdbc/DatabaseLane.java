package dev.baton.store.jdbc;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Set;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * The lane of a test class that works on one database of {@link TestDatabases#names()}: the classes of one lane run one
 * after another, the four lanes at the same time (the module turns JUnit's parallel execution on). A class of a lane
 * runs all its tests in its thread (it holds the lane's lock), so nothing of one class ever runs beside another class
 * of the same database: the classes of a lane share its runs table ({@code baton_runs}, MariaDB's gap locks, SQLite's
 * one writer of a file, H2's file) exactly as they did when every class ran in turn. What runs at the same time are
 * classes of different databases, which share nothing but the JVM and the CPU; most of their time is spent waiting on
 * their database (round trips, commits).
 *
 * <p>Beside the lanes run the {@code *ProcessTest} classes ({@link TestDatabases#WORKER_JVMS}, a database or table of
 * their own) and, in the engine's thread one after another, the classes that use several databases
 * ({@code MigrationTest}, {@code CorruptRowTest}, {@code DeadDatabaseTest}, ...): each works in tables of its own or
 * on runs of agents of its own.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(providers = DatabaseLane.Locks.class)
@interface DatabaseLane {

    /**
     * The database the class works on.
     *
     * @return one of {@link TestDatabases#names()}
     */
    String value();

    /** The lock of a class's lane: {@code baton.lane.} and its database's name. */
    final class Locks implements ResourceLocksProvider {
        @Override
        public Set<Lock> provideForClass(Class<?> testClass) {
            DatabaseLane lane = testClass.getAnnotation(DatabaseLane.class);
            if (lane == null || TestDatabases.names().noneMatch(lane.value()::equals)) {
                throw new IllegalStateException(testClass.getName() + ": @DatabaseLane names one of " + TestDatabases.names().toList());
            }
            return Set.of(new Lock("baton.lane." + lane.value()));
        }
    }
}
