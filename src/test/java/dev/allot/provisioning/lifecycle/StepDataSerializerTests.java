package dev.allot.provisioning.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StepDataSerializerTests {

    private final StepDataSerializer serializer = new StepDataSerializer();

    @Test
    void aStepRoundTrips() {
        ClusterStep step = new ClusterStep(UUID.randomUUID(), "window starts in 15 minutes");

        assertThat(serializer.deserialize(ClusterStep.class, serializer.serialize(step)))
                .isEqualTo(step);
    }

    @Test
    void aStepPersistedUnderItsFormerPackageIsReadAsTheClassItIsNow() throws IOException {
        ClusterStep step = new ClusterStep(UUID.randomUUID(), "cancelled");
        byte[] current = serializer.serialize(step);
        byte[] legacy = renamed(current, ClusterStep.class.getName(), "dev.allot.provisioning.ClusterStep");
        assertThat(legacy).isNotEqualTo(current);

        assertThat(serializer.deserialize(ClusterStep.class, legacy)).isEqualTo(step);
    }

    /** The same stream with a class name replaced: Java serialization writes it as a length-prefixed UTF string. */
    private static byte[] renamed(byte[] stream, String from, String to) throws IOException {
        byte[] fromUtf = utf(from);
        for (int i = 0; i + fromUtf.length <= stream.length; i++) {
            if (Arrays.equals(stream, i, i + fromUtf.length, fromUtf, 0, fromUtf.length)) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(stream, 0, i);
                out.write(utf(to));
                out.write(stream, i + fromUtf.length, stream.length - i - fromUtf.length);
                return out.toByteArray();
            }
        }
        throw new AssertionError(from + " is not in the stream");
    }

    private static byte[] utf(String s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new DataOutputStream(bytes).writeUTF(s);
        return bytes.toByteArray();
    }
}
