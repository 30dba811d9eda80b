package dev.allot.shared.web;

import dev.allot.shared.InstantBounds;
import java.text.ParseException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.springframework.context.annotation.Configuration;
import org.springframework.format.Formatter;
import org.springframework.format.FormatterRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Instant query parameters: ISO-8601 only, within {@link InstantBounds}. */
@Configuration(proxyBeanMethods = false)
class BoundedInstants implements WebMvcConfigurer {

    @Override
    public void addFormatters(FormatterRegistry registry) {
        registry.addFormatterForFieldType(Instant.class, new Formatter<Instant>() {

            @Override
            public Instant parse(String text, Locale locale) throws ParseException {
                Instant instant;
                try {
                    instant = Instant.parse(text.trim());
                } catch (DateTimeParseException ex) {
                    throw new ParseException("not an ISO-8601 instant", 0);
                }
                // named by the parameter in ApiProblems, which finds this cause
                return InstantBounds.check("instant", instant);
            }

            @Override
            public String print(Instant instant, Locale locale) {
                return instant.toString();
            }
        });
    }
}
