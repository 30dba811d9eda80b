package dev.allot.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The whole application, driven through Debian's headless Chromium as a user would: signing in goes through
 * the real OIDC flow of Allot's own issuer. One browser per test class; every test starts signed out.
 */
@Tag("browser")
public abstract class BrowserTest extends IntegrationTest {

    protected static final Path SCREENSHOTS = Path.of("target", "screenshots");

    protected static ChromeDriver browser;

    /** Pages already checked by axe-core in this class (a page is checked once, the first time it is shown). */
    private static final Set<String> CHECKED = new HashSet<>();

    @BeforeAll
    static void startBrowser() throws Exception {
        Path home = Files.createDirectories(Path.of("target", "browser").toAbsolutePath());
        Path profile = Files.createTempDirectory(home, "profile-");
        System.setProperty("webdriver.chrome.driver", "/usr/bin/chromedriver");
        System.setProperty("SE_OFFLINE", "true");
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1280,900",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
                .withEnvironment(Map.of(
                        "XDG_CONFIG_HOME",
                        home.resolve("config").toString(),
                        "XDG_CACHE_HOME",
                        home.resolve("cache").toString(),
                        "SE_OFFLINE",
                        "true"))
                .build();
        browser = new ChromeDriver(service, options);
    }

    /** The page a test ends on is checked too (one reached by clicking rather than by {@link #open}). */
    @AfterEach
    void lastPageIsAccessible() {
        accessible();
    }

    @AfterAll
    static void stopBrowser() {
        System.out.println(
                "axe-core checked " + CHECKED.size() + " pages: no violations (WCAG 2.0-2.2 A/AA, best practices)");
        CHECKED.clear();
        if (browser != null) {
            browser.quit();
            browser = null;
        }
    }

    @BeforeEach
    void signedOut() {
        browser.manage().window().setSize(new Dimension(1280, 900));
        browser.manage().deleteAllCookies();
    }

    /**
     * A laptop's window ({@code width} x 900) or, below 500 px, a phone's ({@code width} x 844), for a test run at both
     * sizes ({@code @ValueSource(ints = { 1440, 390 })}); answers whether it is a phone.
     */
    protected boolean sized(int width) {
        boolean phone = width < 500;
        browser.manage().window().setSize(new Dimension(width, phone ? 844 : 900));
        return phone;
    }

    /**
     * The page's width (its scroll width) and, when wider than the window, the elements that reach past the window's
     * right edge, widest first, for the failure message of a width check: which element made the page too wide.
     */
    protected String pageWidthAndWhatSticksOut() {
        return String.valueOf(browser.executeScript("""
				var out = [], w = document.documentElement.clientWidth;
				document.querySelectorAll('body *').forEach(function (e) {
				  var r = e.getBoundingClientRect();
				  if (r.right > w + 1) {
				    out.push({ right: Math.round(r.right), what: e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
				      + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
				      + ' "' + (e.textContent || '').trim().slice(0, 60) + '"' });
				  }
				});
				out.sort(function (a, b) { return b.right - a.right; });
				return 'page ' + document.documentElement.scrollWidth + ' px wide in a window of ' + w + ' px'
				  + (out.length ? '; past its right edge: ' + out.slice(0, 5).map(function (o) {
				      return o.what + ' to ' + o.right + ' px'; }).join(', ') : '');"""));
    }

    /**
     * Asserts the page is no wider than the window once it has settled: a width seen while the page is still changing
     * (one full CI run saw the booking page 3,578 px wide for the few milliseconds of a quote's refresh, and 1,425 px
     * right after) is printed with what stuck out then, and the check waits up to 5 s for the page to fit.
     */
    protected void pageFits(int width) {
        long seen = ((Number) browser.executeScript("return document.documentElement.scrollWidth")).longValue();
        if (seen <= width) {
            return;
        }
        System.out.println("The page was wider than the window while it changed: " + pageWidthAndWhatSticksOut());
        try {
            new WebDriverWait(browser, Duration.ofSeconds(5))
                    .until(driver ->
                            ((Number) browser.executeScript("return document.documentElement.scrollWidth")).longValue()
                                    <= width);
        } catch (TimeoutException ex) {
            throw new AssertionError(
                    "The page does not fit a window " + width + " px wide: " + pageWidthAndWhatSticksOut());
        }
    }

    /** Waits until the browser has drawn two frames: what the last change laid out is on the screen. */
    protected void twoFramesDrawn() {
        browser.executeAsyncScript("var done = arguments[arguments.length - 1];"
                + " requestAnimationFrame(function () { requestAnimationFrame(function () { done(); }); });");
    }

    protected String url(String path) {
        return api.baseUrl() + path;
    }

    /** Signs in through the OIDC flow (the UI sends an anonymous visitor to Allot's issuer's sign-in page). */
    protected void signIn(String username) {
        signIn(username, "password-" + username);
    }

    /** Signs in through the login form, as a person does. */
    protected void signIn(String username, String password) {
        browser.manage().deleteAllCookies();
        // then the page shown is left, its live updates closed: a sign-in from a page with an open quote or calendar
        // stream timed out waiting for the page after it in two runs
        browser.get("about:blank");
        browser.get(url("/calendar"));
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("username")));
        accessible();
        browser.findElement(By.id("username")).sendKeys(username);
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.id("sign-in")).click();
        // the sign-in's redirects and the calendar behind them, drawn for every pool the whole suite made: a minute
        // (a sign-in late in a full run passed 20 seconds once)
        new WebDriverWait(browser, Duration.ofSeconds(60))
                .until(ExpectedConditions.presenceOfElementLocated(By.id("user-name")));
    }

    protected void open(String path) {
        browser.get(url(path));
        accessible();
    }

    /**
     * axe-core finds no violation of issue 30's bar (WCAG 2.0-2.2 A and AA and best practices, any impact; see
     * {@link Axe#allViolations}) on the page shown, unless it checked it before. Only
     * Allot's own HTML pages: not an API answer shown in the browser, nor another site's page (an identity provider's).
     */
    protected void accessible() {
        String page = browser.getCurrentUrl();
        if (page == null
                || !page.startsWith(api.baseUrl())
                || !"text/html".equals(((JavascriptExecutor) browser).executeScript("return document.contentType"))
                || !CHECKED.add(page)) {
            return;
        }
        checkAccessibility();
    }

    /** axe-core finds no violation of issue 30's bar on the page as it is now. */
    protected void checkAccessibility() {
        List<String> violations = Axe.allViolations(browser);
        if (!violations.isEmpty()) {
            throw new AssertionError("axe-core on " + browser.getCurrentUrl() + ":\n" + String.join("\n", violations));
        }
    }

    protected WebElement find(String css) {
        return browser.findElement(By.cssSelector(css));
    }

    protected List<WebElement> findAll(String css) {
        return browser.findElements(By.cssSelector(css));
    }

    protected boolean exists(String css) {
        return !findAll(css).isEmpty();
    }

    protected String h1() {
        return find("h1").getText();
    }

    /** Submits with the button and waits until the browser shows the next page. */
    protected void submit(String buttonCss) {
        WebElement html = find("html");
        find(buttonCss).click();
        waitFor(driver -> isGone(html));
        accessible();
    }

    /**
     * Whether the element left the document, as {@code ExpectedConditions.stalenessOf} asks; ChromeDriver sometimes
     * reports a node of the page just replaced as an inspector error instead of a stale element: gone all the same.
     */
    protected static boolean isGone(WebElement element) {
        try {
            element.isEnabled();
            return false;
        } catch (StaleElementReferenceException ex) {
            return true;
        } catch (WebDriverException ex) {
            if (ex.getMessage() != null && ex.getMessage().contains("does not belong to the document")) {
                return true;
            }
            throw ex;
        }
    }

    /** Waits up to 20 s; an element swapped out by the page between finding and reading it is looked up again. */
    protected <T> T waitFor(ExpectedCondition<T> condition) {
        return new WebDriverWait(browser, Duration.ofSeconds(20))
                .ignoring(StaleElementReferenceException.class)
                .until(condition);
    }

    protected void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            byte[] png = browser.getScreenshotAs(OutputType.BYTES);
            Files.write(SCREENSHOTS.resolve(name + ".png"), png);
            if (DOCS_SCREENSHOTS.contains(name) && Boolean.getBoolean("allot.screenshots.write")) {
                Files.createDirectories(DOCS);
                Files.write(DOCS.resolve(name + ".png"), png);
            }
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Where the screenshots of the README and docs/browser.md live; {@code -Dallot.screenshots.write=true} takes them
     * anew from the real app.
     */
    protected static final Path DOCS = Path.of("docs", "screenshots");

    /** The screenshots the README and docs/browser.md show (docs/screenshots), each taken by a test. */
    protected static final Set<String> DOCS_SCREENSHOTS = Set.of(
            "demo-home-team",
            "demo-home-fleet",
            "demo-calendar",
            "demo-calendar-phone",
            "laptop-calendar_200-pools",
            "demo-booking",
            "demo-reservation",
            "demo-notices",
            "demo-admin-nodes",
            "demo-admin-node-history",
            "demo-admin-quotas",
            "demo-usage");
}
