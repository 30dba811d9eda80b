/**
 * The home page each role lands on at {@code /}: a team's reservations now and next with their warnings, its quota
 * standing, budget left and unread notices; the fleet's health, utilisation, reclaiming and what waits for a platform
 * admin. It owns no data: it reads each module through that module's API, a handful of queries per page, and links
 * to the page of each thing it shows.
 */
@ApplicationModule(
        displayName = "Home pages",
        allowedDependencies = {"shared", "tenancy", "inventory", "quota", "booking", "provisioning", "billing"})
@NullMarked
package dev.allot.home;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
