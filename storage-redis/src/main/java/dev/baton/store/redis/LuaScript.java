package dev.baton.store.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** One Lua script, run with EVALSHA, and with EVAL on NOSCRIPT (first use, a restart, SCRIPT FLUSH), which caches it. */
final class LuaScript {
    private final String name;
    private final String source;
    private final String sha;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha = sha1(source);
    }

    /** Loads {@code name}.lua, preceded by common.lua when {@code withCommon}. */
    static LuaScript load(String name, boolean withCommon) {
        return withCommon ? compose(name, "common") : compose(name);
    }

    /** Loads {@code name}.lua, preceded by common.lua and decisions.lua (the audit trail's keys and helpers). */
    static LuaScript loadWithDecisions(String name) {
        return compose(name, "common", "decisions");
    }

    /**
     * Loads {@code name}.lua, preceded by the files of shared functions {@code preludes} (names without ".lua", in
     * that order: common, then decisions or lookup), in one chunk: the script calls their local functions.
     */
    static LuaScript compose(String name, String... preludes) {
        StringBuilder source = new StringBuilder();
        for (String p : preludes) source.append(resource(p + ".lua")).append('\n');
        return new LuaScript(name, source.append(resource(name + ".lua")).toString());
    }

    String name() {
        return name;
    }

    <T> T run(RedisScriptingCommands<String, String> redis, ScriptOutputType type, String[] keys, String... args) {
        try {
            return redis.evalsha(sha, type, keys, args);
        } catch (RedisNoScriptException e) {
            // EVAL runs it on the node that owns the key (also in a Cluster) and caches it there for the next EVALSHA
            return redis.eval(source, type, keys, args);
        }
    }

    /**
     * Sends the script without waiting (EVALSHA, then EVAL on NOSCRIPT): several scripts to several nodes of a
     * Cluster go out at once on the connection.
     */
    <T> CompletableFuture<T> runAsync(RedisScriptingAsyncCommands<String, String> redis, ScriptOutputType type, String[] keys,
            String... args) {
        return redis.<T>evalsha(sha, type, keys, args).toCompletableFuture().exceptionallyCompose(e -> {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof RedisNoScriptException) return redis.<T>eval(source, type, keys, args).toCompletableFuture();
            return CompletableFuture.failedFuture(cause);
        });
    }

    private static String resource(String file) {
        try (InputStream in = LuaScript.class.getResourceAsStream(file)) {
            if (in == null) throw new IllegalStateException("missing script resource " + file);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
