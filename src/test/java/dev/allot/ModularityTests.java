package dev.allot;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import org.springframework.modulith.core.ApplicationModules;
import org.springframework.scheduling.annotation.Async;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.modulith.docs.Documenter;

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
		JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("dev.allot");
		com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods()
			.that().areMetaAnnotatedWith(TransactionalEventListener.class)
			.should().beMetaAnnotatedWith(Async.class)
			.because("a synchronous one takes a second pooled connection while its caller holds one")
			.allowEmptyShould(false)
			.check(classes);
	}

	@Test
	void writesModuleDocumentation() {
		new Documenter(modules).writeModulesAsPlantUml().writeIndividualModulesAsPlantUml();
	}

}
