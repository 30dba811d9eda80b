package dev.allot;

import java.time.Clock;
import java.time.Duration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;

/** Allot: the control plane of a shared GPU fleet. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AllotApplication {

    public static void main(String[] args) {
        SpringApplication.run(AllotApplication.class, args);
    }

    /**
     * Every rule that depends on "now" asks this clock, so tests can fix it. It ticks in microseconds, PostgreSQL's
     * precision, so that an instant in a create's answer ({@code createdAt}) is the one a later read returns.
     */
    @Bean
    Clock clock() {
        return Clock.tick(Clock.systemUTC(), Duration.ofNanos(1_000));
    }
}
