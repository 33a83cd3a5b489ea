package dev.baton.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's quickstart compiles (it is a source file of this module) and prints the story. */
class QuickstartTest {

    @Test
    void theQuickstartRunsAndTellsTheStory() {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Quickstart.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("SUSPENDED");
        assertThat(text).contains("waits for bookFlight {\"to\":\"SFO\"}");
        assertThat(text).contains("start\ntool-result\nstep-finish\nstep-start\ntext-delta");
        assertThat(text).endsWith("finish\n");
    }

    @Test
    void theReadmeShowsThisQuickstartVerbatim() throws Exception {
        Path readme = Path.of("..", "README.md");
        String source = Files.readString(Path.of("src/test/java/dev/baton/quickstart/Quickstart.java"));
        String body = source.substring(source.indexOf("import dev.baton.agent.*;"));
        assertThat(Files.readString(readme)).contains(body.strip());
    }
}
