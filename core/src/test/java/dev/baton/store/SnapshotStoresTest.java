package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.StoreProviderException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SnapshotStoresTest {

    @AfterEach
    void clearProperties() {
        System.clearProperty(SnapshotStores.PROVIDER_PROPERTY);
        System.clearProperty(SnapshotStores.URL_PROPERTY);
    }

    @Test
    void theProviderThatAcceptsTheUrlOpensItWithTheProperties() {
        SnapshotStore store = SnapshotStores.open("alpha:db", Map.of("k", "v"));
        assertThat(store).isEqualTo(new FakeProviders.FakeStore("alpha alpha:db", Map.of("k", "v")));
    }

    @Test
    void aUrlNoProviderAcceptsGetsAnErrorListingTheProvidersFound() {
        assertThatThrownBy(() -> SnapshotStores.open("jdbc:oracle:thin:@x"))
                .isInstanceOf(StoreProviderException.class)
                .hasMessageContaining("jdbc:oracle:thin:@x")
                .hasMessageContaining("alpha [alpha:, shared:]")
                .hasMessageContaining("beta [beta:, shared:]");
    }

    @Test
    void severalAcceptingProvidersNeedTheProviderProperty() {
        assertThatThrownBy(() -> SnapshotStores.open("shared:x"))
                .isInstanceOf(StoreProviderException.class)
                .hasMessageContaining("Several").hasMessageContaining("baton.store.provider");
        System.setProperty(SnapshotStores.PROVIDER_PROPERTY, "beta");
        assertThat(((FakeProviders.FakeStore) SnapshotStores.open("shared:x")).url()).isEqualTo("beta shared:x");
    }

    @Test
    void aProviderThatFailsToLoadIsSkippedAndTheOthersStillWork() {
        assertThat(SnapshotStores.providers()).extracting(SnapshotStoreProvider::name).containsExactly("alpha", "beta");
    }

    @Test
    void aBlankUrlIsRejected() {
        assertThatThrownBy(() -> SnapshotStores.open(" ")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("url");
    }

    @Test
    void theDefaultUrlIsTheSystemPropertyElseMemory() {
        if (System.getenv(SnapshotStores.URL_ENV) == null) assertThat(SnapshotStores.defaultUrl()).isEqualTo("memory:");
        System.setProperty(SnapshotStores.URL_PROPERTY, "alpha:from-property");
        assertThat(SnapshotStores.defaultUrl()).isEqualTo("alpha:from-property");
    }

    @Test
    void passwordsAreRedactedInMessages() {
        assertThat(SnapshotStores.redact("redis://user:s3cret@host:6379")).isEqualTo("redis://user:***@host:6379");
        assertThat(SnapshotStores.redact("jdbc:postgresql://h/db?user=a&password=x&ssl=true"))
                .isEqualTo("jdbc:postgresql://h/db?user=a&password=***&ssl=true");
        assertThatThrownBy(() -> SnapshotStores.open("nope://u:hidden@h"))
                .hasMessageNotContaining("hidden");
    }
}
