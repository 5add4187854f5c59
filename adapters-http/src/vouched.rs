//! [`VouchedHosts`]: the hosts besides the API's own origin that a vendor adapter trusts with its credential
//! ([`crate::HttpClient::get_vouched`]).

use std::net::Ipv6Addr;

use url::{Host, Url};

use crate::error::HttpError;

/// The hosts a vendor adapter vouches for: where [`crate::HttpClient::get_vouched`] sends the client's credential
/// besides the API's own origin (e.g. CircleCI's artifact host, which needs the API token for a private project's
/// artifacts). Every other host gets no credential. Matching is by host name (any port; the scheme rules of
/// [`crate::Download`] still apply: `https`, plain `http` only to loopback), case-insensitive, a trailing dot
/// ignored.
///
/// Empty by default: it vouches for nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VouchedHosts {
    /// Names vouched for with every subdomain, lower-case, without a trailing dot.
    domains: Vec<String>,
    /// Hosts vouched for exactly.
    hosts: Vec<Host<String>>,
}

impl VouchedHosts {
    /// Vouches for nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// These hosts and `domain` with every subdomain of it (`circle-artifacts.com` vouches for
    /// `output.circle-artifacts.com`, not for `evil-circle-artifacts.com`).
    #[must_use]
    pub fn with_domain(mut self, domain: &str) -> Self {
        self.domains.push(normalize(domain));
        self
    }

    /// These hosts and exactly `host`, a host name as an operator writes it: a DNS name (`artifacts.example.com`),
    /// an IPv4 address or an IPv6 address (bracketed or not).
    ///
    /// Errors: [`HttpError::InvalidSetting`] naming `setting` when `host` is not a host name (empty, a wildcard,
    /// or with a scheme, port, path or userinfo); the value is named (a host name is no secret).
    pub fn with_host(mut self, host: &str, setting: &str) -> Result<Self, HttpError> {
        let text = host.trim();
        let invalid = |why: &str| HttpError::InvalidSetting {
            setting: setting.to_owned(),
            detail: format!("`{text}` is not a host name ({why}): give names only, e.g. artifacts.example.com"),
        };
        if text.contains('*') {
            return Err(invalid("wildcards are not accepted"));
        }
        let parsed = match text.parse::<Ipv6Addr>() {
            Ok(ip) => Host::Ipv6(ip),
            Err(_) => Host::parse(text).map_err(|_| invalid("no scheme, port, path or user"))?,
        };
        self.hosts.push(match parsed {
            Host::Domain(name) => Host::Domain(normalize(&name)),
            ip => ip,
        });
        Ok(self)
    }

    /// True when `url`'s host is one of these.
    pub fn vouches(&self, url: &Url) -> bool {
        match url.host() {
            None => false,
            Some(Host::Domain(name)) => {
                let name = normalize(name);
                self.domains.iter().any(|domain| {
                    name == *domain || name.strip_suffix(domain.as_str()).is_some_and(|sub| sub.ends_with('.'))
                }) || self
                    .hosts
                    .iter()
                    .any(|host| matches!(host, Host::Domain(h) if *h == name))
            }
            Some(Host::Ipv4(ip)) => self.hosts.contains(&Host::Ipv4(ip)),
            Some(Host::Ipv6(ip)) => self.hosts.contains(&Host::Ipv6(ip)),
        }
    }
}

fn normalize(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that `hosts` vouches for every URL of `ok` and for none of `no`.
    fn check(hosts: &VouchedHosts, ok: &[&str], no: &[&str]) {
        for (urls, expected) in [(ok, true), (no, false)] {
            for url in urls {
                assert_eq!(hosts.vouches(&Url::parse(url).expect("url")), expected, "{url}");
            }
        }
    }

    #[test]
    fn domains_cover_their_subdomains_only() {
        let hosts = VouchedHosts::new().with_domain("circle-artifacts.com");
        let ok = [
            "https://circle-artifacts.com/x",
            "https://output.circle-artifacts.com/output/job/1/artifacts/0/a.zip",
            "https://132-55688803-gh.circle-artifacts.com:8443/0/a",
            "https://OUTPUT.Circle-Artifacts.com./x",
        ];
        let no = [
            "https://evil-circle-artifacts.com/x",
            "https://circle-artifacts.com.evil.example/x",
            "https://s3.amazonaws.com/circle-artifacts.com/x",
            "https://127.0.0.1/x",
        ];
        check(&hosts, &ok, &no);
    }

    #[test]
    fn hosts_are_exact_names_or_addresses_at_any_port() {
        let hosts = VouchedHosts::new()
            .with_host(" Artifacts.Example.com ", "HOSTS")
            .and_then(|h| h.with_host("127.0.0.1", "HOSTS"))
            .and_then(|h| h.with_host("::1", "HOSTS"))
            .and_then(|h| h.with_host("[fe80::2]", "HOSTS"))
            .expect("hosts");
        let ok = [
            "https://artifacts.example.com/x",
            "https://artifacts.example.com:444/x",
            "http://127.0.0.1:9/x",
            "http://[::1]:9/x",
            "https://[fe80::2]/x",
        ];
        let no = [
            "https://sub.artifacts.example.com/x",
            "https://example.com/x",
            "http://127.0.0.2/x",
            "http://localhost/x",
        ];
        check(&hosts, &ok, &no);
        check(&VouchedHosts::new(), &[], &["https://circle-artifacts.com/x"]);
    }

    #[test]
    fn what_is_not_a_host_name_is_refused_naming_the_setting() {
        for bad in [
            "https://artifacts.example.com",
            "artifacts.example.com:8443",
            "artifacts.example.com/x",
            "user@artifacts.example.com",
            "*.example.com",
            "",
        ] {
            let err = VouchedHosts::new()
                .with_host(bad, "CIRCLECI_ARTIFACT_HOSTS")
                .expect_err(bad);
            let text = err.to_string();
            assert!(
                matches!(err, HttpError::InvalidSetting { .. }) && text.starts_with("invalid CIRCLECI_ARTIFACT_HOSTS"),
                "{text}"
            );
        }
    }
}
