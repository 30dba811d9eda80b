package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The contract names each request and response body schema by its type's simple name, so two body types with one
 * simple name document one schema for both (cluster status once read as the booking request's cluster choices).
 */
class ApiNamesTests {

    @Test
    void noTwoTypesInTheApiShareASimpleName() {
        Map<String, Set<String>> byName = new TreeMap<>();
        apiTypes()
                .forEach(type -> byName.computeIfAbsent(type.getSimpleName(), n -> new LinkedHashSet<>())
                        .add(type.getName()));

        assertThat(byName)
                .as("request and response body types of the REST API, by simple name")
                .isNotEmpty()
                .allSatisfy((name, types) -> assertThat(types).as(name).hasSize(1));
    }

    @Test
    void theApiTypesIncludeWhatTheCallersOfTheApiRead() {
        Set<String> names = apiTypes().stream().map(Class::getSimpleName).collect(Collectors.toSet());

        assertThat(names).contains("ClusterStatusBody", "Bucket", "ReservationRequest");
    }

    /** Every record a REST endpoint takes as its body or answers with, and every record inside those. */
    static Set<Class<?>> apiTypes() {
        Set<Class<?>> found = new LinkedHashSet<>();
        new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.allot").stream()
                        .filter(type -> type.isAnnotatedWith(RestController.class))
                        .map(JavaClass::reflect)
                        .forEach(controller -> {
                            for (Method method : controller.getDeclaredMethods()) {
                                if (!AnnotatedElementUtils.hasAnnotation(method, RequestMapping.class)) {
                                    continue;
                                }
                                collect(method.getGenericReturnType(), found);
                                for (Parameter parameter : method.getParameters()) {
                                    if (parameter.isAnnotationPresent(RequestBody.class)) {
                                        collect(parameter.getParameterizedType(), found);
                                    }
                                }
                            }
                        });
        return found;
    }

    private static void collect(Type type, Set<Class<?>> found) {
        if (type instanceof ParameterizedType parameterized) {
            collect(parameterized.getRawType(), found);
            for (Type argument : parameterized.getActualTypeArguments()) {
                collect(argument, found);
            }
        } else if (type instanceof GenericArrayType array) {
            collect(array.getGenericComponentType(), found);
        } else if (type instanceof Class<?> raw
                && raw.getName().startsWith("dev.allot.")
                && !raw.isEnum()
                && !raw.isInterface()
                && found.add(raw)
                && raw.isRecord()) {
            for (RecordComponent component : raw.getRecordComponents()) {
                collect(component.getGenericType(), found);
            }
        }
    }
}
