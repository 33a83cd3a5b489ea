package dev.baton.release;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One release build of a copy of the project: the copy (the project's files without {@code target},
 * {@code .git} and {@code data}; modules that are not built keep only their pom), set to the release
 * version by {@code scripts/set-version}, then {@code scripts/central-bundle} run in it with the
 * wrapper, as a release manager runs it. It reads the outer build's local repository (where the outer
 * build has already put every dependency and plugin, so nothing is downloaded in practice) and
 * installs nothing into it; what it builds stays inside the copy, but for the copy of the staging
 * repository's metadata that Maven keeps in the local repository, as {@code dev/baton/*}{@code
 * /maven-metadata-<repository id>.xml}, as it does for every repository it deploys to (so two builds
 * at the same time deploy under two ids).
 *
 * <p>Not offline ({@code -o}): Maven skips goals that require online mode when it is offline, and the
 * CycloneDX plugin's are such goals, so an offline build would have no SBOM. Not against a private
 * local repository mirrored from the outer one either: the Bouncy Castle jars the signing plugin uses
 * are declared with version ranges, which a local repository read as a remote one cannot resolve.
 */
final class ReleaseBuild {
    private static final Set<String> NEVER_COPIED = Set.of(".git", "target", "data", ".idea");

    final Path dir;
    final String version;

    private ReleaseBuild(Path dir, String version) {
        this.dir = dir;
        this.version = version;
    }

    /** The bundle's staging folder: the groupId/artifactId/version/ tree the zip holds. */
    Path staging() {
        return dir.resolve("target/central-bundle/staging");
    }

    /** The zip to upload. */
    Path zip() {
        return dir.resolve("target/central-bundle/baton-" + version + "-bundle.zip");
    }

    /**
     * Copies {@code root} into {@code dir} with the sources of {@code built} (module folders; all
     * when null) and sets its version from {@code snapshot} to {@code release} with
     * {@code scripts/set-version}.
     */
    static ReleaseBuild copy(Path root, Path dir, List<String> built, String snapshot, String release) throws Exception {
        deleteTree(dir);
        List<String> modules = Poms.modules(root);
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                Path rel = root.relativize(d);
                if (NEVER_COPIED.contains(d.getFileName().toString()) && !d.equals(root)) return FileVisitResult.SKIP_SUBTREE;
                // a module that is not built: its pom only (the reactor reads every module's pom)
                if (built != null && rel.getNameCount() == 2 && modules.contains(rel.getName(0).toString())
                        && !built.contains(rel.getName(0).toString())) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(dir.resolve(rel.toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                Files.copy(f, dir.resolve(root.relativize(f).toString()), StandardCopyOption.COPY_ATTRIBUTES,
                        LinkOption.NOFOLLOW_LINKS);
                return FileVisitResult.CONTINUE;
            }
        });
        // as a release is cut: scripts/set-version, with the project's own timestamp so every copy has the same
        String timestamp = Poms.text(Poms.read(root.resolve("pom.xml")), "properties/project.build.outputTimestamp");
        Result set = run(dir, List.of(dir.resolve("scripts/set-version").toString(), release, timestamp), Map.of(),
                dir.resolveSibling(dir.getFileName() + "-set-version.log"));
        if (set.exitCode() != 0) throw new AssertionError("scripts/set-version " + release + " failed:\n" + set.output());
        try (Stream<Path> poms = Files.walk(dir)) {
            for (Path pom : poms.filter(p -> p.getFileName().toString().equals("pom.xml")).toList()) {
                if (Files.readString(pom, StandardCharsets.UTF_8).contains("<version>" + snapshot + "</version>")) {
                    throw new AssertionError("scripts/set-version " + release + " left " + snapshot + " in " + pom);
                }
            }
        }
        return new ReleaseBuild(dir, release);
    }

    /**
     * The JVM options of the inner Maven processes: C1 alone and the serial collector. Two builds of
     * a minute or two, at the same time, beside the outer build, spend much of their CPU time in the
     * C2 compiler's and the parallel collector's threads; these options build the same bytes with
     * less of it. A release manager's own MAVEN_OPTS are no part of what is checked.
     */
    static final String MAVEN_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto";

    /** What a process printed and how it ended. */
    record Result(int exitCode, String output, Duration took) { }

    /**
     * Runs {@code scripts/central-bundle} in the copy with {@code env} added (a value of "" removes
     * the variable), {@link #MAVEN_OPTS} unless {@code env} sets them, the outer build's local
     * repository, and {@code extra} Maven arguments. Tests are neither compiled nor run: the outer
     * build runs them.
     */
    Result bundle(Map<String, String> env, Path localRepository, List<String> extra) throws Exception {
        Map<String, String> withOptions = new java.util.HashMap<>(env);
        withOptions.putIfAbsent("MAVEN_OPTS", MAVEN_OPTS);
        // -T1 (on the command line, it wins over .mvn/maven.config's -T2): a deploy locks tracking files in the shared local repository
        // (dev/baton/*/resolver-status.properties) with POSIX locks, which belong to a process, not a thread; two
        // multi-threaded builds at once can look deadlocked to the kernel (one thread of each holding a file, another
        // waiting for the other's), and the deploy fails: "IOException: Resource deadlock avoided" (seen once)
        List<String> cmd = new ArrayList<>(List.of(dir.resolve("scripts/central-bundle").toString(), "-T1",
                "-Dmaven.repo.local=" + localRepository, "-Dmaven.test.skip=true"));
        cmd.addAll(extra);
        return run(dir, cmd, withOptions, dir.resolveSibling(dir.getFileName() + "-central-bundle.log"));
    }

    /** Runs {@code cmd} in {@code workDir}, its output to {@code log}; never longer than 20 minutes. */
    static Result run(Path workDir, List<String> cmd, Map<String, String> env, Path log) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // the outer Maven's own variables would point the inner one at the outer project
        for (String v : List.of("MAVEN_ARGS", "MAVEN_BASEDIR", "MAVEN_PROJECTBASEDIR", "BATON_BUNDLE_DIR",
                "MAVEN_GPG_KEY", "MAVEN_GPG_PASSPHRASE", "MAVEN_GPG_KEY_FINGERPRINT")) {
            pb.environment().remove(v);
        }
        env.forEach((k, v) -> {
            if (v.isEmpty()) pb.environment().remove(k);
            else pb.environment().put(k, v);
        });
        long start = System.nanoTime();
        Process p = pb.start();
        boolean ended;
        try {
            ended = p.waitFor(20, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            // the test gave up (another build failed, or the run was stopped): no build is left behind
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw e;
        }
        if (!ended) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not end within 20 minutes; see " + log);
        }
        return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8), Duration.ofNanos(System.nanoTime() - start));
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
