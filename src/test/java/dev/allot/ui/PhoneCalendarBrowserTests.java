package dev.allot.ui;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.support.ui.ExpectedConditions;

import static org.assertj.core.api.Assertions.assertThat;

/** The capacity calendar on a phone (390x844, touch). */
class PhoneCalendarBrowserTests extends ConsoleBrowserTest {

	@Test
	void onAPhoneTheFirstTapOnACellShowsItsNumbersAndOnlyASecondTapOpensTheBookingForm() {
		Team team = onAPhone();
		openCalendar("days=14&step=day&q=" + team.pool());

		tapCell(team.pool(), day(3));
		waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("heatmap-tip")));
		assertThat(exists("#booking-form")).as("the first tap does not leave the calendar").isFalse();
		assertThat(find("#heatmap-tip").getText()).contains(team.pool(), "32 of 32 GPUs free",
				"Tap the cell again to book it.");
		assertThat(find("#cell-info").getText()).contains(team.pool(), "Tap the cell again to book it.");
		screenshot("phone-calendar-first-tap");

		tapCell(team.pool(), day(3));
		waitFor(ExpectedConditions.presenceOfElementLocated(By.id("booking-form")));
		assertThat(find("#pool").getAttribute("value")).isEqualTo(team.pool());
		assertThat(find("#start").getAttribute("value")).isEqualTo(day(3).toString().substring(0, 16));
	}

	/** A member of a new team, signed in, on a phone's screen. */
	private Team onAPhone() {
		Team team = team(4, 32, 32, false);
		signIn(team.member());
		browser.manage().window().setSize(new Dimension(390, 844));
		return team;
	}

	private void openCalendar(String query) {
		open("/calendar?" + query);
		waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-renders]")));
		waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("live-status"), "Live updates: on"));
	}

	private void tapCell(String pool, Instant start) {
		Map<String, Long> at = centre(pool, start);
		tap(at.get("x"), at.get("y"));
	}

	@Test
	void onAPhoneTheCalendarHasCellsAFingerCanHitAndTimeLabelsThatDoNotOverlap() {
		Team team = onAPhone();
		for (String view : List.of("days=7&step=hour", "days=14&step=day", "days=30&step=day")) {
			openCalendar(view + "&q=" + team.pool());
			@SuppressWarnings("unchecked")
			Map<String, Object> measured = (Map<String, Object>) browser.executeScript("""
					var L = window.allotHeatmap.state.layout;
					var labels = Array.from(document.querySelectorAll('#heatmap-svg text.axis:not(.group)'))
					  .map(function (t) { var b = t.getBBox(); return [b.x, b.x + b.width]; });
					var overlaps = 0;
					for (var i = 1; i < labels.length; i++) { if (labels[i][0] < labels[i - 1][1]) { overlaps++; } }
					var name = document.querySelector('#heatmap-svg text.name');
					return { cell: L.cell, row: L.row, labels: labels.length, overlaps: overlaps,
					  font: parseFloat(name.getAttribute('font-size')),
					  pageWidth: document.documentElement.scrollWidth };""");
			assertThat(((Number) measured.get("cell")).doubleValue()).as(view + ": a cell's width").isGreaterThanOrEqualTo(24);
			assertThat(((Number) measured.get("row")).doubleValue()).as(view + ": a row's height").isGreaterThanOrEqualTo(24);
			assertThat(((Number) measured.get("labels")).intValue()).as(view + ": time labels").isGreaterThan(1);
			assertThat(((Number) measured.get("overlaps")).intValue()).as(view + ": overlapping time labels").isZero();
			assertThat(((Number) measured.get("font")).doubleValue()).as(view + ": pool name size")
				.isGreaterThanOrEqualTo(12);
			assertThat(((Number) measured.get("pageWidth")).intValue()).as(view + ": the page (the grid scrolls in its box)")
				.isLessThanOrEqualTo(390);
			screenshot("phone-calendar-" + view.replace('&', '-').replace('=', '-'));
		}
	}

}
