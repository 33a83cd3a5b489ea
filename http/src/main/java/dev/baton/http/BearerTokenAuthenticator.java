package dev.baton.http;

import dev.baton.InvalidOptionException;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Authenticates {@code Authorization: Bearer <token>} against a fixed set of tokens, each mapped to
 * a {@link Principal}.
 *
 * <pre>{@code
 * Authenticator auth = Authenticator.bearerTokens()
 *         .token(System.getenv("INBOX_ADMIN_TOKEN"), Principal.unrestricted("admin"))
 *         .token(System.getenv("INBOX_ALICE_TOKEN"), Principal.limitedTo("alice", "alice"))
 *         .build();
 * }</pre>
 *
 * <p>Tokens are kept only as SHA-256 digests and compared in constant time against every entry,
 * so neither the token nor which entry matched can be learned from response times. Tokens must be
 * at least 16 characters: generate them (for example 32 random bytes, Base64url).
 *
 * <p>Immutable and thread-safe once built; nothing to close. Its {@link Builder} is not thread-safe.
 */
public final class BearerTokenAuthenticator implements Authenticator {
    /** The shortest token accepted. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private record Entry(byte[] digest, Principal principal) {
    }

    private final List<Entry> entries;

    private BearerTokenAuthenticator(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Starts a set of tokens.
     *
     * @return an empty builder
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Optional<Principal> authenticate(HttpServletRequest request) {
        String token = bearerToken(request.getHeader("Authorization"));
        if (token == null) return Optional.empty();
        byte[] digest = sha256(token);
        Principal found = null;
        for (Entry e : entries) {
            // no early exit: every entry is compared
            if (MessageDigest.isEqual(e.digest(), digest) && found == null) found = e.principal();
        }
        return Optional.ofNullable(found);
    }

    /** The token of an {@code Authorization: Bearer <token>} header, or null. */
    static @Nullable String bearerToken(@Nullable String authorization) {
        if (authorization == null) return null;
        String a = authorization.trim();
        if (a.length() < 7 || !a.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) return null;
        String token = a.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    /** The SHA-256 of a string's UTF-8 (the tokens held; the listing's ETag). */
    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Builder of {@link BearerTokenAuthenticator}. */
    public static final class Builder {
        private final List<Entry> entries = new ArrayList<>();   // digests only: the builder keeps no token either

        private Builder() {
        }

        /**
     * Adds a token and the principal it authenticates.
     *
     * @param token     at least {@value BearerTokenAuthenticator#MIN_TOKEN_LENGTH} characters, no whitespace,
     *                  distinct from the other tokens
     * @param principal who the token authenticates
     * @return this builder
     * @throws InvalidOptionException ({@code token}) a short token, one with whitespace, or one given twice
     */
        public Builder token(String token, Principal principal) {
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(principal, "principal");
            if (token.length() < MIN_TOKEN_LENGTH || !token.equals(token.trim()) || token.chars().anyMatch(Character::isWhitespace)) {
                throw new InvalidOptionException("token", "must be at least " + MIN_TOKEN_LENGTH
                        + " characters without spaces (principal '" + principal.name() + "')");
            }
            byte[] digest = sha256(token);
            if (entries.stream().anyMatch(e -> MessageDigest.isEqual(e.digest(), digest))) {
                throw new InvalidOptionException("token", "given twice (principal '" + principal.name() + "')");
            }
            entries.add(new Entry(digest, principal));
            return this;
        }

        /**
         * The authenticator.
         *
         * @return an authenticator of the tokens added
         * @throws InvalidOptionException ({@code token}) no token was added
         */
        public BearerTokenAuthenticator build() {
            if (entries.isEmpty()) throw new InvalidOptionException("token", "at least one token is needed");
            return new BearerTokenAuthenticator(entries);
        }
    }
}
