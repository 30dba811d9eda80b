package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.BrowserTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/** The quick start signs in from http://localhost as well as from http://127.0.0.1, at the first try. */
class LoopbackSignInBrowserTests extends BrowserTest {

    @Test
    void signingInAtLocalhostWorksTheFirstTimeAndLandsOnThePageAskedFor() {
        String user = newUser();
        String localhost = api.baseUrl().replace("127.0.0.1", "localhost");
        assertThat(localhost).startsWith("http://localhost:");
        browser.get(localhost + "/reservations");
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("username")));
        find("#username").sendKeys(user);
        find("#password").sendKeys("password-" + user);
        find("#sign-in").click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("user-name")));
        assertThat(exists("#login-error")).isFalse();
        assertThat(find("#user-name").getText()).isEqualTo("User " + user);
        assertThat(browser.getCurrentUrl()).isEqualTo(api.baseUrl() + "/reservations");
    }
}
