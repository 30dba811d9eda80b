package dev.allot.billing.webhooks;

import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import dev.allot.shared.outbound.OutboundUrls;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** A lifecycle webhook as a tenant admin registers it; validates itself and names every bad field. */
public record LifecycleWebhookRequest(
        @Nullable String url,
        @Nullable String secret,
        @Nullable List<String> events) {

    /**
     * The events subscribed to (all when none are named), once the request is valid. Also resolves the URL's
     * host: it must lead only to addresses the outbound policy allows.
     */
    Set<LifecycleEvent> validate(OutboundUrls outbound) {
        List<FieldError> errors = new ArrayList<>();
        if (url == null || url.isBlank()) {
            errors.add(new FieldError("url", "is required"));
        } else if (url.length() > 2000) {
            errors.add(new FieldError("url", "must be at most 2000 characters"));
        } else {
            outbound.problem(url).ifPresent(problem -> errors.add(new FieldError("url", problem)));
        }
        if (secret == null || secret.length() < 16 || secret.length() > 200) {
            errors.add(new FieldError("secret", "must be 16-200 characters"));
        }
        Set<LifecycleEvent> subscribed = EnumSet.allOf(LifecycleEvent.class);
        if (events != null) {
            subscribed = EnumSet.noneOf(LifecycleEvent.class);
            for (String event : events) {
                LifecycleEvent known = Arrays.stream(LifecycleEvent.values())
                        .filter(e -> e.name().equals(event))
                        .findFirst()
                        .orElse(null);
                if (known == null) {
                    errors.add(new FieldError(
                            "events",
                            "must name events among " + Arrays.toString(LifecycleEvent.values())
                                    + " (all of them when absent)"));
                    break;
                }
                subscribed.add(known);
            }
            if (events.isEmpty()) {
                errors.add(new FieldError("events", "must name at least one event (all of them when absent)"));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return subscribed;
    }
}
