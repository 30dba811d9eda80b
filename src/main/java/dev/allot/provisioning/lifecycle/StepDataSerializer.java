package dev.allot.provisioning.lifecycle;

import com.github.kagkarlsson.scheduler.boot.config.DbSchedulerCustomizer;
import com.github.kagkarlsson.scheduler.exceptions.SerializationException;
import com.github.kagkarlsson.scheduler.serializer.Serializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * db-scheduler keeps each task's data Java-serialized, class name included. {@link ClusterStep} sat in the module's
 * root package until the module's internals moved into sub-packages; steps persisted before then still name it there,
 * and are read as the class it is now, so an upgrade loses no scheduled provisioning or teardown.
 */
@Configuration(proxyBeanMethods = false)
class StepDataSerializer implements Serializer {

    static final Map<String, Class<?>> MOVED = Map.of("dev.allot.provisioning.ClusterStep", ClusterStep.class);

    @Bean
    DbSchedulerCustomizer stepDataSerializerCustomizer() {
        return new DbSchedulerCustomizer() {
            @Override
            public Optional<Serializer> serializer() {
                return Optional.of(StepDataSerializer.this);
            }
        };
    }

    @Override
    public byte[] serialize(Object data) {
        try (ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(data);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException ex) {
            throw new SerializationException("Failed to serialize task data", ex);
        }
    }

    @Override
    public <T> T deserialize(Class<T> type, byte[] data) {
        try (ObjectInputStream in = new MovedClasses(new ByteArrayInputStream(data))) {
            return type.cast(in.readObject());
        } catch (IOException | ClassNotFoundException ex) {
            throw new SerializationException("Failed to deserialize task data", ex);
        }
    }

    private static final class MovedClasses extends ObjectInputStream {

        MovedClasses(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
            ObjectStreamClass written = super.readClassDescriptor();
            Class<?> moved = MOVED.get(written.getName());
            return moved == null ? written : ObjectStreamClass.lookup(moved);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, StepDataSerializer.class.getClassLoader());
            } catch (ClassNotFoundException ex) {
                return super.resolveClass(desc);
            }
        }
    }
}
