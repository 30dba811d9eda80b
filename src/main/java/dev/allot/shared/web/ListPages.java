package dev.allot.shared.web;

import dev.allot.shared.InvalidInputException;
import dev.allot.shared.SearchQuery;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;

/**
 * What every searchable admin list does with its request: reads {@code ?q=&sort=&page=&size=}, and, when one is
 * bad, shows the list as it opens with a message saying what the parameter takes ({@code listError}), answered
 * 400 rather than an error page. With htmx (not boosted) it answers only the list.
 */
public final class ListPages {

    private ListPages() {}

    public static SearchQuery read(
            SearchQuery.Columns columns,
            @Nullable String q,
            @Nullable String sort,
            @Nullable String page,
            @Nullable String size,
            Model model,
            HttpServletResponse response) {
        try {
            return columns.read(q, sort, page, size);
        } catch (InvalidInputException invalid) {
            refused(invalid, model, response);
            return columns.defaults();
        }
    }

    /** A bad filter of the list (not one of {@link SearchQuery}'s): the page says so and answers 400. */
    public static void refused(InvalidInputException invalid, Model model, HttpServletResponse response) {
        model.addAttribute("listError", invalid.errors().getFirst().message());
        response.setStatus(400);
    }

    /** Whether htmx asked for the list alone (a search, a sort, a page), not for the whole page. */
    public static boolean fragment(HttpServletRequest request) {
        return request.getHeader("HX-Request") != null && request.getHeader("HX-Boosted") == null;
    }
}
