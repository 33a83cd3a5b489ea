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
 * after another, the lanes at the same time (the module turns JUnit's parallel execution on). A class of a lane runs
 * all its tests in its thread (it holds the lane's lock), so nothing of one class ever runs beside another class of
 * its lane: MariaDB's, H2's and SQLite's classes share their runs table ({@code baton_runs}, MariaDB's gap locks,
 * SQLite's one writer of a file, H2's file) exactly as they did when every class ran in turn. What runs at the same
 * time are classes of different databases, which share nothing but the JVM and the CPU, and PostgreSQL's two lanes;
 * most of their time is spent waiting on their database (round trips, commits).
 *
 * <p>PostgreSQL has two lanes: its agent-level classes ({@code part = "agents"}: {@code PostgresAgentTest},
 * {@code PostgresAgentMemoryTest}, {@code PostgresRecoveryTest}) beside its store-level ones. Its writes lock only
 * their own rows (no gap locks, no lock of a file), and every class writes runs of agents of its own, as
 * {@code PostgresProcessTest} always did beside the other classes on the same table; so two of its classes at once
 * share the runs table safely, and its lane, the longest (202 s one class after another), is split in two of about
 * 100 s each.
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

    /**
     * The second lane of a database, where it has one: only PostgreSQL's {@code "agents"} (see above).
     *
     * @return the lane's name within its database; empty for the database's lane
     */
    String part() default "";

    /** The lock of a class's lane: {@code baton.lane.}, its database's name and its part, if any. */
    final class Locks implements ResourceLocksProvider {
        @Override
        public Set<Lock> provideForClass(Class<?> testClass) {
            DatabaseLane lane = testClass.getAnnotation(DatabaseLane.class);
            if (lane == null || TestDatabases.names().noneMatch(lane.value()::equals)) {
                throw new IllegalStateException(testClass.getName() + ": @DatabaseLane names one of " + TestDatabases.names().toList());
            }
            if (!lane.part().isEmpty() && !(lane.value().equals("PostgreSQL") && lane.part().equals("agents"))) {
                throw new IllegalStateException(testClass.getName() + ": only PostgreSQL has a second lane, \"agents\"");
            }
            return Set.of(new Lock("baton.lane." + lane.value() + (lane.part().isEmpty() ? "" : "." + lane.part())));
        }
    }
}
