package dev.allot.identity.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.AllotApplication;
import dev.allot.support.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.NestedExceptionUtils;

/** A start against an external database without a sealing key is refused, saying exactly what to set. */
@ExtendWith(OutputCaptureExtension.class)
class ProductionStartTests {

    @Test
    void withoutASealingKeyAnExternalDatabaseStartIsRefused(CapturedOutput output) {
        TestDatabase.Connection db = TestDatabase.get();
        assertThatThrownBy(() -> SpringApplication.run(
                        AllotApplication.class,
                        "--spring.datasource.url=" + db.url(),
                        "--spring.datasource.username=" + db.username(),
                        "--spring.datasource.password=" + db.password(),
                        "--allot.security.sealing-key=",
                        "--server.port=0",
                        "--allot.security.public-url=",
                        "--db-scheduler.enabled=false",
                        "--allot.demo.enabled=false",
                        "--server.shutdown=immediate"))
                .satisfies(ex -> assertThat(NestedExceptionUtils.getMostSpecificCause(ex))
                        .isInstanceOf(SigningKeySealing.MissingSealingKeyException.class));
        assertThat(output)
                .contains("APPLICATION FAILED TO START")
                .contains("Set allot.security.sealing-key (environment: ALLOT_SEALING_KEY)")
                .contains("openssl rand -base64 32");
    }
}
