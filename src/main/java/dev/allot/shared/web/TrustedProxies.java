package dev.allot.shared.web;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.web.util.matcher.IpAddressMatcher;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.ForwardedHeaderFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Honours {@code Forwarded} and {@code X-Forwarded-*} (scheme, host, port, client address) only on requests
 * that come straight from a proxy listed in {@code allot.security.trusted-proxies} (addresses or CIDR blocks);
 * from anyone else they are removed before anything reads them. Otherwise any client could choose the host
 * Allot builds redirects and links with, or the source address that rate limits and the audit record.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class TrustedProxies extends OncePerRequestFilter {

	private final List<IpAddressMatcher> proxies;

	private final ForwardedHeaderFilter apply = new ForwardedHeaderFilter();

	private final ForwardedHeaderFilter remove = new ForwardedHeaderFilter();

	TrustedProxies(@Value("${allot.security.trusted-proxies:}") String[] proxies) {
		this.proxies = Arrays.stream(proxies)
			.map(String::strip)
			.filter(proxy -> !proxy.isEmpty())
			.map(IpAddressMatcher::new)
			.toList();
		this.remove.setRemoveOnly(true);
	}

	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

	@Override
	protected boolean shouldNotFilterErrorDispatch() {
		return false;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		(trusted(request.getRemoteAddr()) ? this.apply : this.remove).doFilter(request, response, chain);
	}

	boolean trusted(String address) {
		for (IpAddressMatcher proxy : this.proxies) {
			if (proxy.matches(address)) {
				return true;
			}
		}
		return false;
	}

}
