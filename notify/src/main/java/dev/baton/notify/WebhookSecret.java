package dev.baton.notify;

import dev.baton.InvalidOptionException;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The shared secret of a signed webhook and the Standard Webhooks signature made with it:
 * {@code v1,} + base64(HMAC-SHA256(secret, {@code id.timestamp.body})).
 */
final class WebhookSecret {
    /** The Standard Webhooks prefix of a base64 secret. */
    static final String PREFIX = "whsec_";
    /** The shortest key Standard Webhooks allows: 24 bytes (192 bits). */
    static final int MIN_BYTES = 24;

    private final byte[] key;

    private WebhookSecret(byte[] key) {
        this.key = key;
    }

    /**
     * A Standard Webhooks secret: {@code whsec_} and the base64 of at least {@value #MIN_BYTES} random
     * bytes, the form the official libraries (e.g. npm {@code standardwebhooks}, Svix) read, so any of
     * them verifies what this signs. Generate one with {@code echo "whsec_$(openssl rand -base64 32)"}.
     */
    static WebhookSecret parse(String option, String secret) {
        if (secret == null || secret.isBlank()) throw new InvalidOptionException(option, "must not be blank");
        if (!secret.startsWith(PREFIX)) {
            throw new InvalidOptionException(option, "must be " + PREFIX + " followed by the base64 of at least " + MIN_BYTES
                    + " random bytes (Standard Webhooks; the official libraries read only that form), e.g. the output of"
                    + " echo \"whsec_$(openssl rand -base64 32)\"");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(option, "a whsec_ secret is base64 after the prefix: " + e.getMessage());
        }
        if (key.length < MIN_BYTES) {
            throw new InvalidOptionException(option, "must hold at least " + MIN_BYTES + " bytes after " + PREFIX
                    + " (Standard Webhooks), was " + key.length);
        }
        return new WebhookSecret(key);
    }

    /** {@code v1,<base64 signature>} of one message. */
    String sign(String id, long timestampSeconds, byte[] body) {
        return "v1," + Base64.getEncoder().encodeToString(mac(id, timestampSeconds, body));
    }

    byte[] mac(String id, long timestampSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JDK has HmacSHA256", e);
        }
    }
}
