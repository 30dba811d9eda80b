package dev.allot.ui;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;

import static org.assertj.core.api.Assertions.assertThat;

/** A team's pages on a phone (390x844): none wider than the screen, and every table that scrolls is reachable by keyboard. */
class PhonePagesBrowserTests extends ConsoleBrowserTest {

	@Test
	void onAPhoneTheUsageAndQuotaPagesAreNoWiderThanTheScreenAndAxeFindsNothing() {
		Team team = team(2, 8, 16, false);
		bookByApi(team, 8, day(1), day(2));
		signIn(team.member());
		browser.manage().window().setSize(new Dimension(390, 844));
		for (String page : List.of("usage", "quota")) {
			// open() runs axe-core on the page as the phone shows it
			open("/tenants/" + team.tenant() + "/" + page);
			fullScreenshot("phone-" + page);
			Number width = (Number) browser.executeScript("return document.documentElement.scrollWidth");
			assertThat(width.intValue()).as(page).isLessThanOrEqualTo(390);
		}
	}

}
