package dev.allot.shared;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationWordsTests {

    @Test
    void durationsReadAsWordsNeverAsIsoText() {
        assertThat(DurationWords.of(Duration.ofHours(168))).isEqualTo("7 days");
        assertThat(DurationWords.of(Duration.ofHours(192))).isEqualTo("8 days");
        assertThat(DurationWords.of(Duration.ofDays(1))).isEqualTo("1 day");
        assertThat(DurationWords.of(Duration.ofHours(36))).isEqualTo("36 hours");
        assertThat(DurationWords.of(Duration.ofHours(54))).isEqualTo("2 days 6 hours");
        assertThat(DurationWords.of(Duration.ofMinutes(90))).isEqualTo("90 minutes");
        assertThat(DurationWords.of(Duration.ofMinutes(150))).isEqualTo("2 hours 30 minutes");
        assertThat(DurationWords.of(Duration.ofSeconds(3 * 86400 + 4000))).isEqualTo("3 days 1 hour");
        assertThat(DurationWords.of(Duration.ofSeconds(20))).isEqualTo("less than a minute");
        assertThat(DurationWords.of(Duration.ofHours(-2))).isEqualTo("2 hours");
    }
}
