package dev.allot.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * axe-core (Deque's accessibility engine, MPL-2.0, shipped in the test resources so that it runs offline) run in
 * the page the browser shows: issue 30's bar, every WCAG 2.0-2.2 A and AA rule and Deque's best practices.
 */
public final class Axe {

    private static final String SOURCE = load();

    /** Every rule of issue 30's bar, whatever the impact: WCAG 2.0-2.2 A and AA, and Deque's best practices. */
    private static final String RUN_ALL = """
			var done = arguments[arguments.length - 1];
			axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa',
			    'best-practice'] } })
			  .then(function (result) {
			    done(result.violations.map(function (v) {
			        return v.id + ' (' + v.impact + '): ' + v.help + ' at ' + v.nodes.slice(0, 3).map(function (n) {
			          return n.target.join(' ') + ' [' + (n.failureSummary || '').replace(/\\s+/g, ' ') + ']';
			        }).join('; ');
			      }));
			  }, function (error) { done(['axe could not run: ' + error]); });""";

    private Axe() {}

    /** Every violation of {@link #RUN_ALL}'s rules on the page shown now, minor ones too; empty when there are none. */
    @SuppressWarnings("unchecked")
    public static List<String> allViolations(ChromeDriver browser) {
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        if (Boolean.FALSE.equals(browser.executeScript("return typeof window.axe === 'object'"))) {
            browser.executeScript(SOURCE);
        }
        return (List<String>) browser.executeAsyncScript(RUN_ALL);
    }

    private static String load() {
        try (InputStream in = Axe.class.getResourceAsStream("/axe-core/axe.min.js")) {
            if (in == null) {
                throw new IllegalStateException("axe-core/axe.min.js is missing from the test resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
