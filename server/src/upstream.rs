//! How the server reaches its upstreams (GitHub, CircleCI, Jira, Confluence, Bitbucket), read from the settings: the
//! proxies ([`HTTPS_PROXY`], [`HTTP_PROXY`], [`ALL_PROXY`], [`NO_PROXY`]), each upstream's TLS (its CA bundle and
//! client certificate, [`CA_BUNDLE`] as the default CA bundle), and the https-only rule ([`ALLOW_INSECURE_HTTP`]).
//!
//! What is wrong here stops start-up ([`crate::Settings::errors`]), naming the setting: a PEM file that cannot be
//! read or holds no usable certificate or key, a client certificate without its key, a proxy URL that is not one,
//! a plain `http://` base URL off loopback. The typed result goes to `adapters-http` ([`TlsOptions`],
//! [`ProxyOptions`]), which applies it to every client of the upstream.

use std::path::Path;

use adapters_http::tls::{CaBundle, ClientIdentity, IdentityError, TlsOptions, TlsSettingNames};
use adapters_http::{Proxies, ProxyOptions, ProxyUrl};
use url::Url;

use crate::config::Reader;
use crate::registry::*;

/// The settings of every upstream base URL, checked by the https-only rule.
pub const BASE_SETTINGS: &[&str] = &[
    GITHUB_API_BASE,
    CIRCLECI_API_BASE,
    JIRA_BASE_URL,
    CONFLUENCE_BASE_URL,
    BITBUCKET_BASE_URL,
];

/// How the server reaches each upstream: the proxies (the same for all) and each one's TLS settings.
#[derive(Debug, Clone)]
pub struct Upstreams {
    /// The proxies, always explicit: read from the settings (and so from the environment, lower-case names too).
    pub proxy: ProxyOptions,
    /// GitHub's CA bundle and client certificate.
    pub github: TlsOptions,
    /// CircleCI's.
    pub circleci: TlsOptions,
    /// Jira's, Confluence's and Bitbucket's.
    pub atlassian: TlsOptions,
}

impl Upstreams {
    /// Reads the proxies, the TLS files and the https-only rule; what stops start-up is pushed to `errors`, an
    /// insecure base allowed by [`ALLOW_INSECURE_HTTP`] is a warning.
    pub fn read(r: &mut Reader<'_>, errors: &mut Vec<String>) -> Upstreams {
        check_https(r, errors);
        let default_ca = r.text(CA_BUNDLE).and_then(|path| ca_bundle(CA_BUNDLE, &path, errors));
        let mut tls = |ca: &'static str, cert: &'static str, key: &'static str| {
            let names = TlsSettingNames::default()
                .with_ca_bundle(ca)
                .with_client_cert(cert)
                .with_client_key(key);
            let ca_bundle = match r.text(ca) {
                Some(path) => ca_bundle(ca, &path, errors),
                None => default_ca.clone(),
            };
            TlsOptions::default()
                .with_ca_bundle(ca_bundle)
                .with_identity(identity(r, names, errors))
                .with_names(names)
        };
        Upstreams {
            github: tls(GITHUB_CA_BUNDLE, GITHUB_CLIENT_CERT, GITHUB_CLIENT_KEY),
            circleci: tls(CIRCLECI_CA_BUNDLE, CIRCLECI_CLIENT_CERT, CIRCLECI_CLIENT_KEY),
            atlassian: tls(ATLASSIAN_CA_BUNDLE, ATLASSIAN_CLIENT_CERT, ATLASSIAN_CLIENT_KEY),
            proxy: proxies(r, errors),
        }
    }
}

/// The https-only rule: a base URL setting that is plain `http` to a host that is not loopback stops start-up,
/// unless [`ALLOW_INSECURE_HTTP`] allows it (then one warning each). A value that is not a URL is left to the
/// client, which names the setting when called.
fn check_https(r: &mut Reader<'_>, errors: &mut Vec<String>) {
    let allowed = r.switch(ALLOW_INSECURE_HTTP, false);
    for setting in BASE_SETTINGS {
        let Some(url) = r.text(setting).and_then(|raw| Url::parse(&raw).ok()) else {
            continue;
        };
        if url.scheme() != "http" || adapters_http::target::is_loopback(&url) {
            continue;
        }
        // The origin only: a mistyped base may hold a credential in its userinfo or query.
        let origin = url.origin().ascii_serialization();
        if allowed {
            r.warnings.push(format!(
                "{setting}={origin} is plain http ({ALLOW_INSECURE_HTTP}=true): its credential and answers cross the \
                 network unencrypted"
            ));
        } else {
            errors.push(format!(
                "{setting}={origin} is plain http to a host that is not loopback: its credential and answers would \
                 cross the network unencrypted. Use https://, or set {ALLOW_INSECURE_HTTP}=true to allow it"
            ));
        }
    }
}

/// The file at `path` (the value of `setting`), or an error naming both.
fn read_file(setting: &str, path: &str, errors: &mut Vec<String>) -> Option<Vec<u8>> {
    std::fs::read(Path::new(path))
        .map_err(|err| errors.push(format!("{setting}={path}: cannot be read ({err})")))
        .ok()
}

/// The CA bundle at `path`, or an error naming `setting`.
fn ca_bundle(setting: &str, path: &str, errors: &mut Vec<String>) -> Option<CaBundle> {
    let pem = read_file(setting, path, errors)?;
    CaBundle::from_pem(&pem)
        .map_err(|err| errors.push(format!("{setting}={path} {err}")))
        .ok()
}

/// The client certificate and key of `names`: both or neither set; each file read and the pair loaded, or an error
/// naming the setting at fault.
fn identity(r: &Reader<'_>, names: TlsSettingNames, errors: &mut Vec<String>) -> Option<ClientIdentity> {
    let (cert_setting, key_setting) = (names.client_cert, names.client_key);
    let (cert_path, key_path) = match (r.text(cert_setting), r.text(key_setting)) {
        (None, None) => return None,
        (Some(cert), Some(key)) => (cert, key),
        (set, _) => {
            let (given, missing) = if set.is_some() {
                (cert_setting, key_setting)
            } else {
                (key_setting, cert_setting)
            };
            errors.push(format!(
                "{given} is set but {missing} is not: set both, the client certificate and its private key (PEM files)"
            ));
            return None;
        }
    };
    let cert = read_file(cert_setting, &cert_path, errors);
    let key = read_file(key_setting, &key_path, errors);
    let (cert, key) = (cert?, key?);
    ClientIdentity::from_pem(&cert, &key)
        .map_err(|err| {
            errors.push(match err {
                IdentityError::Certificate(err) => format!("{cert_setting}={cert_path} {err}"),
                IdentityError::Key(err) => format!("{key_setting}={key_path} {err}"),
                other => format!("{cert_setting}={cert_path} and {key_setting}={key_path}: {other}"),
            })
        })
        .ok()
}

/// The proxies: [`HTTPS_PROXY`] for https upstreams, [`HTTP_PROXY`] for http ones, [`ALL_PROXY`] for either
/// without its own, [`NO_PROXY`] the hosts reached direct. A value that is not a proxy URL stops start-up.
fn proxies(r: &Reader<'_>, errors: &mut Vec<String>) -> ProxyOptions {
    let mut parse = |setting: &'static str| {
        let raw = r.text(setting)?;
        ProxyUrl::parse(&raw, setting)
            .map_err(|err| errors.push(format!("{setting}: the value {err}")))
            .ok()
    };
    let all = parse(ALL_PROXY);
    let https = parse(HTTPS_PROXY).or_else(|| all.clone());
    let http = parse(HTTP_PROXY).or(all);
    ProxyOptions::Explicit(
        Proxies::default()
            .with_https(https)
            .with_http(http)
            .with_no_proxy(r.text(NO_PROXY).unwrap_or_default())
            .with_no_proxy_setting(NO_PROXY),
    )
}

/// The `--print-config` line of the proxies, passwords masked: `https via http://u:***@proxy:3128 (HTTPS_PROXY),
/// http via … (HTTP_PROXY); direct: NO_PROXY localhost,127.0.0.1`, or `none (every upstream direct)`.
pub fn describe_proxies(proxy: &ProxyOptions) -> String {
    let ProxyOptions::Explicit(proxies) = proxy else {
        return "those of the process environment (reqwest's reading)".to_owned();
    };
    let routes: Vec<String> = [("https", &proxies.https), ("http", &proxies.http)]
        .into_iter()
        .filter_map(|(scheme, proxy)| {
            let proxy = proxy.as_ref()?;
            Some(format!("{scheme} via {} ({})", proxy.masked(), proxy.setting()))
        })
        .collect();
    if routes.is_empty() {
        return "none (every upstream direct)".to_owned();
    }
    let direct = if proxies.no_proxy.is_empty() {
        "every host through them".to_owned()
    } else {
        format!("direct: {} {}", proxies.no_proxy_setting, proxies.no_proxy)
    };
    format!("{}; {direct}", routes.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::settings_of as settings;

    #[test]
    fn plain_http_bases_off_loopback_stop_start_up_unless_allowed() {
        let (s, warnings) = settings(&[
            (GITHUB_API_BASE, "http://127.0.0.1:9"),
            (CIRCLECI_API_BASE, "http://localhost:9/api/v2"),
            (JIRA_BASE_URL, "http://[::1]:9"),
            (CONFLUENCE_BASE_URL, "https://wiki.example.com"),
        ]);
        assert!(
            s.errors.is_empty() && warnings.is_empty(),
            "{:?} {warnings:?}",
            s.errors
        );
        let insecure = [
            (
                GITHUB_API_BASE,
                "http://u:pw-0123456789@ghe.example.com/api/v3?token=qs-0123456789",
            ),
            (BITBUCKET_BASE_URL, "http://10.0.0.7:7990"),
        ];
        let (s, _) = settings(&insecure);
        assert_eq!(s.errors.len(), 2, "{:?}", s.errors);
        assert!(
            s.errors[0].starts_with("GITHUB_API_BASE=http://ghe.example.com is plain http")
                && s.errors[0].ends_with("set MCP_ALLOW_INSECURE_HTTP=true to allow it"),
            "{:?}",
            s.errors
        );
        assert!(
            !s.errors.join(" ").contains("0123456789"),
            "no credential shown: {:?}",
            s.errors
        );
        let mut allowed = insecure.to_vec();
        allowed.push((ALLOW_INSECURE_HTTP, "yes"));
        let (s, warnings) = settings(&allowed);
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[1].starts_with("BITBUCKET_BASE_URL=http://10.0.0.7:7990 is plain http"),
            "{warnings:?}"
        );
    }

    #[test]
    fn proxies_fall_back_to_all_proxy_and_are_shown_masked() {
        let (s, _) = settings(&[]);
        assert_eq!(
            describe_proxies(&s.tools.github.http.client.proxy),
            "none (every upstream direct)"
        );
        assert!(
            s.backends()
                .contains(&"upstream proxies: none (every upstream direct)".to_owned())
        );
        let (s, warnings) = settings(&[
            (ALL_PROXY, "http://mia:all-pass-0001@proxy.example:3128"),
            (HTTP_PROXY, "plain.example:8080"),
            (NO_PROXY, "localhost,.internal.example"),
        ]);
        assert!(
            s.errors.is_empty() && warnings.is_empty(),
            "{:?} {warnings:?}",
            s.errors
        );
        let shown = describe_proxies(&s.tools.atlassian.client.proxy);
        assert_eq!(
            shown,
            "https via http://mia:***@proxy.example:3128 (ALL_PROXY), http via http://plain.example:8080 (HTTP_PROXY); \
             direct: NO_PROXY localhost,.internal.example"
        );
        assert_eq!(s.tools.circleci.http.client.proxy, s.tools.github.http.client.proxy);
        assert!(!format!("{s:?}").contains("all-pass-0001"));
        let (s, _) = settings(&[(HTTPS_PROXY, "socks5://mia:sock-pass-0001@proxy:1080")]);
        assert_eq!(
            s.errors,
            ["HTTPS_PROXY: the value has the scheme `socks5`: only http:// and https:// proxies are supported"]
        );
    }

    #[test]
    fn each_upstream_has_its_ca_bundle_or_the_default_and_its_client_certificate() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path.display().to_string()
        };
        let issued = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
        let ca = write("ca.pem", &issued.cert.pem());
        let two = write("two.pem", &format!("{}{}", issued.cert.pem(), issued.cert.pem()));
        let key = write("key.pem", &issued.signing_key.serialize_pem());
        let (s, warnings) = settings(&[
            (CA_BUNDLE, &ca),
            (GITHUB_CA_BUNDLE, &two),
            (CIRCLECI_CLIENT_CERT, &ca),
            (CIRCLECI_CLIENT_KEY, &key),
        ]);
        assert!(
            s.errors.is_empty() && warnings.is_empty(),
            "{:?} {warnings:?}",
            s.errors
        );
        let bundle = |tls: &TlsOptions| tls.ca_bundle.as_ref().map(CaBundle::len);
        assert_eq!(bundle(&s.tools.github.http.client.tls), Some(2), "its own");
        assert_eq!(bundle(&s.tools.circleci.http.client.tls), Some(1), "the default");
        assert_eq!(bundle(&s.tools.atlassian.client.tls), Some(1), "the default");
        assert!(s.tools.circleci.http.client.tls.identity.is_some());
        assert!(s.tools.github.http.client.tls.identity.is_none());
        assert_eq!(s.tools.atlassian.client.tls.names.client_key, ATLASSIAN_CLIENT_KEY);
        assert_eq!(s.tools.github.http.client.tls.names.ca_bundle, GITHUB_CA_BUNDLE);
        assert!(!format!("{s:?}").contains("PRIVATE KEY"));

        let (s, _) = settings(&[
            (ATLASSIAN_CLIENT_KEY, &key),
            (GITHUB_CLIENT_CERT, &ca),
            (GITHUB_CLIENT_KEY, &ca),
        ]);
        assert_eq!(s.errors.len(), 2, "{:?}", s.errors);
        assert!(s.errors[0].starts_with("GITHUB_CLIENT_KEY="), "{:?}", s.errors);
        assert!(s.errors[0].ends_with("holds no PEM private key (a `-----BEGIN PRIVATE KEY-----` block)"));
        assert_eq!(
            s.errors[1],
            "ATLASSIAN_CLIENT_KEY is set but ATLASSIAN_CLIENT_CERT is not: set both, the client certificate and its \
             private key (PEM files)"
        );
    }
}
