package dev.baton.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What {@link WebhookChannel} sends verifies with an official Standard Webhooks implementation: the
 * npm package {@code standardwebhooks} (1.1.1), run by {@code node}. The secret is
 * {@code whsec_<base64>}, the id holds no {@code .}, and a body changed by one byte is refused.
 * Skipped where {@code node} and {@code npm} are missing or the package cannot be installed (into
 * {@code target/standardwebhooks}, once); the check by hand is in docs/notifications.md.
 */
class StandardWebhooksInteropTest {
    private static final Path PACKAGE = Path.of("target", "standardwebhooks");
    private static final String VERIFY = """
            const { Webhook } = require(process.argv[2] + '/node_modules/standardwebhooks');
            const fs = require('fs');
            const [secret, id, timestamp, signature, bodyFile] = process.argv.slice(3);
            const body = fs.readFileSync(bodyFile, 'utf8');
            try {
              const payload = new Webhook(secret).verify(body,
                  { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature });
              console.log('verified ' + payload.type + ' ' + payload.id);
            } catch (e) {
              console.log('refused: ' + e.message);
              process.exit(3);
            }
            """;

    @Test
    void whatAWebhookChannelSignsVerifiesWithTheOfficialNodeLibrary() throws Exception {
        assumeTrue(run(Duration.ofSeconds(20), "node", "--version").exit() == 0, "node is not installed");
        if (!Files.isDirectory(PACKAGE.resolve("node_modules/standardwebhooks"))) {
            Files.createDirectories(PACKAGE);
            Result install = run(Duration.ofMinutes(2), "npm", "install", "--prefix", PACKAGE.toString(), "--no-audit",
                    "--no-fund", "standardwebhooks@1.1.1");
            assumeTrue(install.exit() == 0, "npm could not install standardwebhooks: " + install.output());
        }
        Path script = PACKAGE.resolve("verify.js");
        Files.writeString(script, VERIFY);
        try (Receiver receiver = new Receiver()) {
            WebhookChannel channel = WebhookChannel.builder(receiver.url()).secret(WebhookChannelTest.SECRET).build();
            assertThat(channel.deliver(WebhookChannelTest.notification()).isDelivered()).isTrue();
            Receiver.Received r = receiver.received.get(0);
            Path body = PACKAGE.resolve("body.json");
            Files.write(body, r.body());
            Result ok = run(Duration.ofSeconds(30), "node", script.toString(), PACKAGE.toAbsolutePath().toString(),
                    WebhookChannelTest.SECRET, r.id(), r.timestamp(), r.signature(), body.toString());
            assertThat(ok.output()).as("the official library on what the channel signed")
                    .contains("verified run.suspended " + r.id());
            assertThat(ok.exit()).isZero();

            byte[] tampered = r.body().clone();
            tampered[tampered.length - 2] ^= 1;
            Files.write(body, tampered);
            Result refused = run(Duration.ofSeconds(30), "node", script.toString(), PACKAGE.toAbsolutePath().toString(),
                    WebhookChannelTest.SECRET, r.id(), r.timestamp(), r.signature(), body.toString());
            assertThat(refused.exit()).as("the official library on a body changed by one bit: %s", refused.output()).isEqualTo(3);
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result run(Duration limit, String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "timed out after " + limit);
            }
            return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, e.toString());
        }
    }
}
