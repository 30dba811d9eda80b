package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.springframework.stereotype.Component;

/**
 * Issue 32's size limits for production code: no file over {@value #MAX_FILE_LINES} lines, no method over
 * {@value #MAX_METHOD_LINES}, no bean with more than {@value #MAX_DEPENDENCIES} constructor dependencies. Lines are
 * counted as written (javac's own parser finds where each method starts and ends), after the formatter.
 *
 * <p>
 * The code had outgrown the limits before they were set (14 files, 31 methods and 10 beans over them after
 * formatting); a shrinking list of their names held them until each was split along the domain. None is left.
 */
class SizeLimitsTests {

    static final int MAX_FILE_LINES = 400;

    static final int MAX_METHOD_LINES = 60;

    static final int MAX_DEPENDENCIES = 10;

    private static final Path MAIN = Path.of("src/main/java");

    @Test
    void noProductionFileIsLongerThanTheLimit() throws IOException {
        Map<String, Integer> over = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                int lines = Files.readAllLines(file).size();
                if (lines > MAX_FILE_LINES) {
                    over.put(file.getFileName().toString().replace(".java", ""), lines);
                }
            }
        }
        assertWithin("file", over);
    }

    @Test
    void noProductionMethodIsLongerThanTheLimit() throws IOException {
        Map<String, Integer> over = new TreeMap<>();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null);
                Stream<Path> paths = Files.walk(MAIN)) {
            Iterable<? extends JavaFileObject> sources = files.getJavaFileObjectsFromPaths(
                    paths.filter(p -> p.toString().endsWith(".java")).toList());
            JavacTask task = (JavacTask) javac.getTask(null, files, null, List.of("-proc:none"), null, sources);
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            for (CompilationUnitTree unit : task.parse()) {
                LineMap lines = unit.getLineMap();
                new TreePathScanner<Void, String>() {

                    @Override
                    public Void visitClass(ClassTree type, String outer) {
                        String name =
                                outer.isEmpty() ? type.getSimpleName().toString() : outer + "." + type.getSimpleName();
                        return super.visitClass(type, name);
                    }

                    @Override
                    public Void visitMethod(MethodTree method, String type) {
                        if (method.getBody() != null) {
                            long first = lines.getLineNumber(positions.getStartPosition(unit, method));
                            long last = lines.getLineNumber(positions.getEndPosition(unit, method));
                            int length = (int) (last - first + 1);
                            if (length > MAX_METHOD_LINES) {
                                over.merge(type + "." + method.getName(), length, Math::max);
                            }
                        }
                        return super.visitMethod(method, type);
                    }
                }.scan(unit, "");
            }
        }
        assertWithin("method", over);
    }

    @Test
    void noBeanTakesMoreThanTheLimitOfDependencies() {
        Map<String, Integer> over = new TreeMap<>();
        for (JavaClass type : new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.allot")) {
            if (!type.isMetaAnnotatedWith(Component.class)) {
                continue;
            }
            int most = type.getConstructors().stream()
                    .mapToInt(constructor -> constructor.getRawParameterTypes().size())
                    .max()
                    .orElse(0);
            if (most > MAX_DEPENDENCIES) {
                over.put(type.getSimpleName(), most);
            }
        }
        assertWithin("bean", over);
    }

    private static void assertWithin(String what, Map<String, Integer> over) {
        assertThat(over)
                .as("each %s over the limit, with its size: split it along the domain", what)
                .isEmpty();
    }
}
