package dev.allot.shared.web;

import dev.allot.shared.SearchQuery;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The links of a searchable, sortable, paged list: each heading's sort, the pager's pages, each keeping the search,
 * the filters and the order in the URL, so that a list can be bookmarked, shared and used without JavaScript.
 *
 * @param filters the list's other parameters (a state, a GPU type), by name; blank ones are left out of links
 */
public record ListLinks(String path, Map<String, String> filters, SearchQuery search, long totalItems) {

    public ListLinks {
        filters = Collections.unmodifiableMap(new LinkedHashMap<>(filters));
    }

    /** The link of a column's heading: sorted by it (the other way when it is the order now), from the first page. */
    public String sort(String field) {
        return url(search.sortParamFor(field), 0);
    }

    /** The link of a page of the same list. */
    public String page(int number) {
        return url(search.sortParam(), number);
    }

    public String ariaSort(String field) {
        return search.ariaSort(field);
    }

    public int pageNumber() {
        return search.page().page();
    }

    public int lastPage() {
        return (int) Math.max(0, (totalItems - 1) / search.page().size());
    }

    public boolean hasPrevious() {
        return pageNumber() > 0;
    }

    public boolean hasNext() {
        return pageNumber() < lastPage();
    }

    /** Whether the page asked for lies past the list's end. */
    public boolean pastTheEnd() {
        return totalItems > 0 && pageNumber() > lastPage();
    }

    /** {@code 51-100 of 300}: which rows the page shows. */
    public String shown() {
        if (totalItems == 0 || pastTheEnd()) {
            return "0 of " + totalItems;
        }
        long first = search.page().offset() + 1;
        long last = Math.min(totalItems, search.page().offset() + search.page().size());
        return first + "–" + last + " of " + totalItems;
    }

    private String url(String sort, int page) {
        UriComponentsBuilder url = UriComponentsBuilder.fromPath(path);
        if (search.text() != null) {
            url.queryParam("q", search.text());
        }
        filters.forEach((name, value) -> {
            if (value != null && !value.isBlank()) {
                url.queryParam(name, value);
            }
        });
        url.queryParam("sort", sort);
        if (page > 0) {
            url.queryParam("page", page);
        }
        if (search.page().size() != SearchQuery.DEFAULT_SIZE) {
            url.queryParam("size", search.page().size());
        }
        return url.encode().build().toUriString();
    }
}
