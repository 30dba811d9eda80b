package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Controller;
import org.springframework.stereotype.Repository;

/**
 * The naming rule of {@code docs/architecture.md} (issue 32): a {@code …Repository} reads and writes rows, and a
 * service is named for what it does, not as a bare plural, which reads as a collection of rows.
 */
class NamingTests {

    /**
     * Services that were bare plurals when the rule was set. No new one may join them; a renamed one must leave the
     * list, so it only shrinks.
     */
    static final Set<String> BARE_PLURAL_SERVICES = Set.of(
            "AdminOutages",
            "ApiCallCounts",
            "ApiProblems",
            "ApiRoutingProblems",
            "ApprovalNotices",
            "BookingEvents",
            "BookingMetrics",
            "Bookings",
            "Budgets",
            "Callers",
            "ClusterEvents",
            "ClusterTransitions",
            "ClusterViews",
            "ClusterVolumes",
            "ContainerRejections",
            "DatabaseRoles",
            "Degradations",
            "DegradedNodeHours",
            "DemoBookings",
            "DriverChoices",
            "DriverOrchestrators",
            "ExternalIdentities",
            "FailureNotices",
            "Failures",
            "FleetChanges",
            "HealthCheckRuns",
            "HealthChecks",
            "HotSpares",
            "IdempotentCreates",
            "IdleReclaimPolicies",
            "LateOutageCredits",
            "LedgerAccounts",
            "LifecycleEvents",
            "LifecycleWebhooks",
            "NextPageLinks",
            "NodeCheckRuns",
            "NodeChecks",
            "NodeEvents",
            "NodeOutages",
            "NodeReplacementNotices",
            "Notices",
            "Notifications",
            "OutboundUrls",
            "PlatformReports",
            "PreemptionNotices",
            "ProjectBudgets",
            "ProjectMembers",
            "QuotaRequestNotices",
            "QuotaRequests",
            "QuotaUsageReads",
            "Quotas",
            "RebootRechecks",
            "RejectedRequests",
            "RequestIds",
            "ReservationReads",
            "RevokedTokens",
            "SchedulerMetrics",
            "ServiceAccounts",
            "SignInFailures",
            "SigningKeys",
            "Statements",
            "StoredVolumes",
            "TableChanges",
            "TenantLogins",
            "TrustedProxies",
            "UiErrors",
            "UsageCharts",
            "UsageReports",
            "Utilisations",
            "WebhookSecrets",
            "Words");

    /** Last words that end in "s" but are not plurals. */
    private static final Set<String> NOT_PLURAL = Set.of("Access", "Status", "Class", "Address", "Analysis");

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.allot");

    @Test
    void repositoriesAreNamedSo() {
        for (JavaClass type : classes) {
            boolean repository = type.isAnnotatedWith(Repository.class);
            assertThat(type.getSimpleName().endsWith("Repository"))
                    .as("%s: every @Repository is named …Repository, and nothing else is", type.getName())
                    .isEqualTo(repository);
        }
    }

    @Test
    void servicesAreNotBarePlurals() {
        List<String> plurals = classes.stream()
                .filter(type -> type.isTopLevelClass() && type.isMetaAnnotatedWith(Component.class))
                .filter(type -> !type.isMetaAnnotatedWith(Configuration.class)
                        && !type.isAnnotatedWith(ConfigurationProperties.class)
                        && !type.isMetaAnnotatedWith(Controller.class)
                        && !type.isAnnotatedWith(Repository.class))
                .map(JavaClass::getSimpleName)
                .filter(NamingTests::barePlural)
                .sorted()
                .toList();
        assertThat(plurals.stream()
                        .filter(name -> !BARE_PLURAL_SERVICES.contains(name))
                        .toList())
                .as("services named as a bare plural: name each for what it does (or …Service)")
                .isEmpty();
        assertThat(BARE_PLURAL_SERVICES.stream()
                        .filter(name -> !plurals.contains(name))
                        .toList())
                .as("listed bare-plural services that are gone or renamed: take them off the list")
                .isEmpty();
    }

    static boolean barePlural(String name) {
        String[] words = name.split("(?=[A-Z])");
        String last = words[words.length - 1];
        return last.endsWith("s") && !last.endsWith("ss") && !NOT_PLURAL.contains(last);
    }
}
