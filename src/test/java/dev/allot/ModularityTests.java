package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertAll;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;
import org.springframework.scheduling.annotation.Async;
import org.springframework.transaction.event.TransactionalEventListener;

class ModularityTests {

    private final ApplicationModules modules = ApplicationModules.of(AllotApplication.class);

    @Test
    void modulesDependOnEachOtherOnlyAsDesigned() {
        modules.verify();
    }

    /**
     * Spring Modulith marks every transactional listener's publication done in a transaction of its own. Run on the
     * thread that committed, that transaction needs a second connection while the first is still held: a full
     * pool of such requests waits for ever (it did, in the booking contention test). So they run asynchronously.
     */
    @Test
    void transactionalEventListenersRunAsynchronously() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.allot");
        ArchRuleDefinition.methods()
                .that()
                .areMetaAnnotatedWith(TransactionalEventListener.class)
                .should()
                .beMetaAnnotatedWith(Async.class)
                .because("a synchronous one takes a second pooled connection while its caller holds one")
                .allowEmptyShould(false)
                .check(classes);
    }

    /**
     * Modulith treats every public type of a module's root package as its API, and only there checks that no other
     * module reaches inside. So the root holds what other modules use and the events the module publishes (booking's
     * events are in its named interface {@code booking.events} instead).
     */
    @Test
    void modulesExposeOnlyWhatOtherModulesUseAndTheirEvents() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.allot");
        for (String name : List.of("billing", "provisioning", "booking", "identity", "quota", "inventory", "tenancy")) {
            ApplicationModule module = modules.getModuleByName(name).orElseThrow();
            Set<String> events = module.getPublishedEvents().stream()
                    .map(event -> event.getType().getFullName())
                    .collect(Collectors.toSet());
            List<JavaClass> exposed = classes.stream()
                    .filter(type ->
                            type.getPackageName().equals(module.getBasePackage().getName()))
                    .filter(type -> type.getModifiers().contains(JavaModifier.PUBLIC) && type.isTopLevelClass())
                    .toList();

            assertThat(exposed).as(name + "'s public root types").hasSizeLessThanOrEqualTo(8);
            assertThat(exposed)
                    .as(name + "'s public root types")
                    .allSatisfy(type -> assertThat(events.contains(type.getFullName())
                                    || type.getDirectDependenciesToSelf().stream()
                                            .anyMatch(use -> !module.contains(use.getOriginClass())))
                            .as(type.getSimpleName() + " is an event of " + name + " or used by another module")
                            .isTrue());
        }
    }

    /**
     * Issue 26: one class decides cluster transitions. The steps that talk to the driver report what happened; only
     * {@code ClusterTransitions} turns that into a state and stores it (before, six classes decided through sixteen
     * calls, and they disagreed on when a degraded cluster recovers).
     */
    @Test
    void onlyClusterTransitionsMovesACluster() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.allot");
        Set<String> moves = Set.of(
                "startBuilding",
                "installingDrivers",
                "runningAcceptanceTests",
                "handOver",
                "degrade",
                "recover",
                "startDeleting",
                "deleted",
                "fail");
        ArchRuleDefinition.noClasses()
                .that()
                .doNotHaveFullyQualifiedName("dev.allot.provisioning.lifecycle.ClusterTransitions")
                .and()
                .doNotHaveFullyQualifiedName("dev.allot.provisioning.lifecycle.Cluster")
                .should()
                .callMethodWhere(DescribedPredicate.describe(
                        "a transition of Cluster",
                        call -> call.getTargetOwner().getFullName().equals("dev.allot.provisioning.lifecycle.Cluster")
                                && moves.contains(call.getName())))
                .orShould()
                .callMethod(
                        "dev.allot.provisioning.lifecycle.ClusterRepository",
                        "moved",
                        "dev.allot.provisioning.lifecycle.Cluster",
                        "dev.allot.provisioning.lifecycle.Cluster")
                .check(classes);
    }

    /**
     * Issue 32: inside a module, the sub-packages depend on each other one way only. Each direct sub-package (with
     * its own sub-packages) is a slice; the module's root, its front door, is none. Every module Modulith finds is
     * checked, so a new one is too.
     */
    @Test
    void noPackageCyclesInsideAnyModule() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.allot");
        assertAll(modules.stream()
                .<Executable>map(module -> () -> SlicesRuleDefinition.slices()
                        .matching(module.getBasePackage().getName() + ".(*)..")
                        .namingSlices(module.getName() + ".$1")
                        .should()
                        .beFreeOfCycles()
                        .allowEmptyShould(true) // a module without sub-packages
                        .check(classes)));
    }

    @Test
    void writesModuleDocumentation() {
        new Documenter(modules).writeModulesAsPlantUml().writeIndividualModulesAsPlantUml();
    }
}
