package dev.baton.notify;

import dev.baton.InvalidOptionException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/** The checks of a channel's options. */
final class Urls {
    private Urls() {
    }

    /** An absolute http(s) URL with a host. */
    static URI http(String option, URI url) {
        Objects.requireNonNull(url, option);
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http")) {
            throw new InvalidOptionException(option, "must be an http or https URL, was '" + url + "'");
        }
        if (url.getHost() == null || url.getHost().isEmpty()) throw new InvalidOptionException(option, "has no host: '" + url + "'");
        return url;
    }

    static Duration positive(String option, Duration d) {
        Objects.requireNonNull(d, option);
        if (d.isZero() || d.isNegative()) throw new InvalidOptionException(option, "must be positive, was " + d);
        return d;
    }
}
