package dev.baton.examples;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs {@link InboxApp} in a new JVM (same java, the test class path), as a person in a shell would. */
final class Jvm {
    record Result(int exitCode, String out, String err) {
        /** Everything the process printed, for assertion messages. */
        String all() {
            return "exit " + exitCode + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
        }
    }

    private Jvm() {
    }

    /**
     * Options that make a short-lived InboxApp JVM cost less CPU without changing what it does: the
     * C1 compiler only and the serial collector (a command of a second or two never reaches the code
     * C2 would make faster, and its compiler and GC threads compete with the test run for the cores).
     * Application class data sharing would start them faster still, but JDK 17 refuses to write an
     * archive for a class path holding a directory ({@code target/classes}).
     */
    static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto");

    static Result inboxApp(Path workingDir, String... args) throws IOException, InterruptedException {
        return inboxApp(workingDir, Map.of(), args);
    }

    /** Like {@link #inboxApp(Path, String...)}, with environment variables set, or removed when given as "". */
    static Result inboxApp(Path workingDir, Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(new File(new File(System.getProperty("java.home"), "bin"), "java").getPath());
        cmd.addAll(FAST_START);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(InboxApp.class.getName());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(workingDir, "stdout", ".txt");
        Path err = Files.createTempFile(workingDir, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(cmd).directory(workingDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        env.forEach((name, value) -> {
            if (value.isEmpty()) builder.environment().remove(name);
            else builder.environment().put(name, value);
        });
        Process p = builder.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("InboxApp " + String.join(" ", args) + " did not end within 180 s:\n"
                    + Files.readString(out, StandardCharsets.UTF_8));
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
