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
    static final int MIN_BYTES = 16;

    private final byte[] key;

    private WebhookSecret(byte[] key) {
        this.key = key;
    }

    /** {@code whsec_<base64>} (Standard Webhooks), or any other text as its UTF-8 bytes; at least 16 bytes. */
    static WebhookSecret parse(String option, String secret) {
        if (secret == null || secret.isBlank()) throw new InvalidOptionException(option, "must not be blank");
        byte[] key;
        if (secret.startsWith(PREFIX)) {
            try {
                key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
            } catch (IllegalArgumentException e) {
                throw new InvalidOptionException(option, "a whsec_ secret is base64 after the prefix: " + e.getMessage());
            }
        } else {
            key = secret.getBytes(StandardCharsets.UTF_8);
        }
        if (key.length < MIN_BYTES) {
            throw new InvalidOptionException(option, "must be at least " + MIN_BYTES + " bytes, was " + key.length);
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
