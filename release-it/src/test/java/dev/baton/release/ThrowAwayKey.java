package dev.baton.release;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.util.Date;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.SymmetricKeyAlgorithmTags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyPair;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.jcajce.JcaPGPObjectFactory;
import org.bouncycastle.openpgp.operator.PGPDigestCalculator;
import org.bouncycastle.openpgp.operator.jcajce.JcaPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.jcajce.JcaPGPContentVerifierBuilderProvider;
import org.bouncycastle.openpgp.operator.jcajce.JcaPGPDigestCalculatorProviderBuilder;
import org.bouncycastle.openpgp.operator.jcajce.JcaPGPKeyPair;
import org.bouncycastle.openpgp.operator.jcajce.JcePBESecretKeyEncryptorBuilder;

/**
 * An OpenPGP signing key made for one test run and thrown away: the armored, passphrase-protected
 * secret key goes to the release build as {@code MAVEN_GPG_KEY} (with {@code MAVEN_GPG_PASSPHRASE}),
 * exactly as a release manager's key would; the public key checks the signatures the build wrote.
 */
final class ThrowAwayKey {
    static final String USER_ID = "Baton release-it (throw-away) <release-it@baton.invalid>";

    private final String armoredSecretKey;
    private final String passphrase;
    private final PGPPublicKeyRing publicKeys;

    private ThrowAwayKey(String armoredSecretKey, String passphrase, PGPPublicKeyRing publicKeys) {
        this.armoredSecretKey = armoredSecretKey;
        this.passphrase = passphrase;
        this.publicKeys = publicKeys;
    }

    /** A new RSA 3072 signing key, protected by a random passphrase. */
    static ThrowAwayKey generate() {
        try {
            KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
            rsa.initialize(3072, new SecureRandom());
            PGPKeyPair pair = new JcaPGPKeyPair(PGPPublicKey.RSA_GENERAL, rsa.generateKeyPair(), new Date());
            String passphrase = Long.toHexString(new SecureRandom().nextLong()) + "-release-it";
            PGPDigestCalculator sha1 = new JcaPGPDigestCalculatorProviderBuilder().build().get(HashAlgorithmTags.SHA1);
            PGPKeyRingGenerator rings = new PGPKeyRingGenerator(PGPSignature.POSITIVE_CERTIFICATION, pair, USER_ID, sha1,
                    null, null, new JcaPGPContentSignerBuilder(pair.getPublicKey().getAlgorithm(), HashAlgorithmTags.SHA256),
                    new JcePBESecretKeyEncryptorBuilder(SymmetricKeyAlgorithmTags.AES_256, sha1).build(passphrase.toCharArray()));
            ByteArrayOutputStream armored = new ByteArrayOutputStream();
            try (ArmoredOutputStream out = new ArmoredOutputStream(armored)) {
                rings.generateSecretKeyRing().encode(out);
            }
            return new ThrowAwayKey(armored.toString(StandardCharsets.US_ASCII), passphrase, rings.generatePublicKeyRing());
        } catch (GeneralSecurityException | PGPException | IOException e) {
            throw new AssertionError("cannot make a throw-away OpenPGP key: " + e, e);
        }
    }

    /** The value of {@code MAVEN_GPG_KEY}. */
    String armoredSecretKey() {
        return armoredSecretKey;
    }

    /** The value of {@code MAVEN_GPG_PASSPHRASE}. */
    String passphrase() {
        return passphrase;
    }

    /** The public key, armored, e.g. for {@code gpg --import}. */
    String armoredPublicKey() {
        ByteArrayOutputStream armored = new ByteArrayOutputStream();
        try (ArmoredOutputStream out = new ArmoredOutputStream(armored)) {
            publicKeys.encode(out);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return armored.toString(StandardCharsets.US_ASCII);
    }

    /** Whether {@code signature} (an armored detached signature, a {@code .asc} file) is this key's signature of {@code file}. */
    boolean signed(Path file, Path signature) throws IOException {
        try (InputStream in = PGPUtil.getDecoderStream(Files.newInputStream(signature))) {
            Object first = new JcaPGPObjectFactory(in).nextObject();
            if (!(first instanceof PGPSignatureList list) || list.isEmpty()) return false;
            PGPSignature sig = list.get(0);
            PGPPublicKey key = publicKeys.getPublicKey(sig.getKeyID());
            if (key == null) return false;
            sig.init(new JcaPGPContentVerifierBuilderProvider(), key);
            sig.update(Files.readAllBytes(file));
            return sig.verify();
        } catch (PGPException e) {
            return false;
        }
    }
}
