package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/** The booking form on a phone (390x844, touch): nothing moves under the finger while the quote refreshes. */
class PhoneBookingBrowserTests extends ConsoleBrowserTest {

    @Test
    void onAPhoneATapOnBookRightAfterEditingAFieldBooksThoughTheQuoteRefreshes() {
        Team team = team(4, 16, 32, false);
        signIn(team.member());
        browser.manage().window().setSize(new Dimension(390, 844));
        Instant start = day(3).plus(Duration.ofHours(9));
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(4)) + "&gpus=8");
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("verdict"), "It fits"));
        assertThat(findAll("#split tr[data-rate-class='BORROWED']")).isEmpty();

        // 24 GPUs adds a borrowed line and a note to the quote: the quote grows as it refreshes.
        WebElement quote = find("#quote");
        find("#gpus").clear();
        find("#gpus").sendKeys("24");
        // The finger heads for Book as it is now, before the refreshed quote arrives.
        browser.executeScript("document.getElementById('book-submit').scrollIntoView({block: 'center'})");
        @SuppressWarnings("unchecked")
        Map<String, Number> before = (Map<String, Number>)
                browser.executeScript("var r = document.getElementById('book-submit').getBoundingClientRect();"
                        + " return {x: r.left + r.width / 2, y: r.top + r.height / 2};");
        waitFor(ExpectedConditions.stalenessOf(quote));
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#split tr[data-rate-class='BORROWED']")));
        @SuppressWarnings("unchecked")
        Map<String, Number> after = (Map<String, Number>)
                browser.executeScript("var r = document.getElementById('book-submit').getBoundingClientRect();"
                        + " return {x: r.left + r.width / 2, y: r.top + r.height / 2};");
        screenshot("phone-book-after-requote");
        assertThat(after.get("y").doubleValue())
                .as("Book's place on the screen after the quote refreshed")
                .isCloseTo(before.get("y").doubleValue(), Offset.offset(1.0));

        // A tap where Book was books.
        WebElement html = find("html");
        tap(before.get("x"), before.get("y"));
        waitFor(driver -> isGone(html));
        assertThat(find("#notice").getText()).isEqualTo("Booked 24 GPUs of " + team.pool() + ".");
    }
}
