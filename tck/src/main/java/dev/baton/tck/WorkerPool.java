package dev.baton.tck;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The worker JVMs of {@link ProcessContract}, shared by every scenario and every test class of the test JVM. A
 * {@link ProcessWorker} starts with no store, so one JVM serves any store under test; a scenario takes one, opens its
 * store in it, and gives it back when the scenario is over and the JVM answered {@code end} with {@code idle} (its
 * agent and store closed). A JVM a scenario killed, stopped, or left in a tool that hangs is never given back.
 *
 * <p>Starting a JVM (and loading Baton, a driver, Jackson) is most of a scenario's time on a loaded machine; so up to
 * {@link #SPARES} JVMs start in the background, while scenarios wait on leases, before anyone asks for them, at most
 * {@link #BOOTING} at once (many JVMs starting at once starve each other).
 */
final class WorkerPool {
    /** How many JVMs wait, idle or starting, for the next scenario. */
    static final int SPARES = 2;
    /** How many idle JVMs are kept at most; one given back beyond that exits. */
    static final int MAX_IDLE = 4;
    /** Spares start only while fewer JVMs than this are starting. */
    static final int BOOTING = 2;
    /** How much of a worker's stderr a failure message keeps: its end, where the cause usually is. */
    static final int STDERR_KEPT = 8_000;

    /** Idle JVMs, those given back (warm) first, then spares in the order they started. */
    private static final Deque<Jvm> IDLE = new ArrayDeque<>();
    /** Every JVM alive, so that none outlives the test JVM. */
    private static final Set<Jvm> ALIVE = ConcurrentHashMap.newKeySet();
    private static int booting;
    private static boolean hooked;

    private WorkerPool() {
    }

    /**
     * A JVM that said {@code idle}, ready for a {@code scenario} command: a warm one given back, else a spare, else a
     * new one; then more spares start in the background.
     */
    static Jvm take() throws IOException {
        Jvm jvm;
        synchronized (WorkerPool.class) {
            do {
                jvm = IDLE.pollFirst();
            } while (jvm != null && jvm.idle && !jvm.process.isAlive());
            if (jvm == null) jvm = start();
            topUp();
        }
        jvm.awaitIdle();
        return jvm;
    }

    /**
     * Gives back a JVM whose scenario is over: it closes the scenario's agent and store and says {@code idle}, or it
     * is ended. Only a JVM with no answer left unread and no tool under way may be given back.
     */
    static void giveBack(Jvm jvm) {
        boolean kept = false;
        try {
            if (jvm.process.isAlive() && jvm.answers.isEmpty()) {
                jvm.send("end");
                kept = "idle".equals(jvm.answers.poll(20, TimeUnit.SECONDS));
            }
        } catch (IOException e) {
            kept = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kept = false;
        }
        if (kept) {
            synchronized (WorkerPool.class) {
                if (IDLE.size() < MAX_IDLE) {
                    jvm.idle = true;
                    IDLE.addFirst(jvm);
                    return;
                }
            }
        }
        jvm.exit();
    }

    /** Starts spares while fewer than {@link #SPARES} wait and fewer than {@link #BOOTING} JVMs are starting. */
    private static void topUp() throws IOException {
        while (IDLE.size() < SPARES && booting < BOOTING) IDLE.addLast(start());
    }

    private static Jvm start() throws IOException {
        if (!hooked) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> ALIVE.forEach(j -> j.process.destroyForcibly()),
                    "tck-worker-pool-stop"));
            hooked = true;
        }
        booting++;
        return new Jvm();
    }

    private static synchronized void booted() {
        booting--;
    }

    /** One worker JVM: its input, its answers as they come, and the end of its stderr. */
    static final class Jvm {
        final Process process;
        private final Writer in;
        final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        /** The stderr since the current scenario took it (or since it started), its start cut when too long. */
        private final StringBuilder stderr = new StringBuilder();
        private long stderrDropped;
        /** Whether it said {@code idle} (its first answer, or the answer to {@code end}) and nothing since. */
        volatile boolean idle;
        private boolean countedBooted;

        private Jvm() throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), ProcessWorker.class.getName()));
            process = pb.start();
            ALIVE.add(this);
            process.onExit().thenRun(() -> {
                ALIVE.remove(this);
                bootEnded();
            });
            in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            Thread reader = new Thread(() -> {
                try {
                    answers.add(ProcessWorker.readAnswer(out));
                    bootEnded();
                    while (true) answers.add(ProcessWorker.readAnswer(out));
                } catch (IOException e) {
                    answers.add("ended");
                }
            }, "tck-worker-reader-" + process.pid());
            reader.setDaemon(true);
            reader.start();
            Reader err = new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8);
            Thread drain = new Thread(() -> {
                char[] buf = new char[4096];
                try {
                    for (int n; (n = err.read(buf)) > 0; ) keep(buf, n);
                } catch (IOException e) {
                    // the JVM is gone
                }
            }, "tck-worker-stderr-" + process.pid());
            drain.setDaemon(true);
            drain.start();
        }

        private synchronized void bootEnded() {
            if (countedBooted) return;
            countedBooted = true;
            booted();
        }

        private synchronized void keep(char[] buf, int n) {
            stderr.append(buf, 0, n);
            if (stderr.length() > 2 * STDERR_KEPT) {
                int cut = stderr.length() - STDERR_KEPT;
                stderr.delete(0, cut);
                stderrDropped += cut;
            }
        }

        /** Forgets the stderr so far: a failure message shows what this scenario made it print. */
        synchronized void forgetStderr() {
            stderrDropped = 0;
            stderr.setLength(0);
        }

        /** The end of its stderr (at most 8,000 characters), for a failure message. */
        synchronized String stderr() {
            if (stderr.toString().isBlank()) return "; its stderr is empty";
            long before = stderrDropped + Math.max(0, stderr.length() - STDERR_KEPT);
            String end = stderr.length() > STDERR_KEPT ? stderr.substring(stderr.length() - STDERR_KEPT) : stderr.toString();
            return "; its stderr:\n" + (before > 0 ? "[... " + before + " characters before]\n" : "") + end;
        }

        /** Waits (at most 60 s) until it said {@code idle}. */
        private void awaitIdle() {
            if (idle) return;
            String first;
            try {
                first = answers.poll(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            if (!"idle".equals(first)) {
                String why = first == null ? "gave no answer in 60 s" : "answered '" + first + "' instead of 'idle'";
                process.destroyForcibly();
                throw new AssertionError("a worker JVM did not start: it " + why + stderr());
            }
            idle = true;
        }

        void send(String command) throws IOException {
            idle = false;
            in.write(command + "\n");
            in.flush();
        }

        /** Asks it to end (at most 10 s), else kills it. */
        void exit() {
            if (process.isAlive()) {
                try {
                    send("exit");
                } catch (IOException e) {
                    // it is going anyway
                }
            }
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
