//! [`TlsOptions`]: what one upstream's TLS trusts besides the system's CAs ([`CaBundle`]) and the client certificate
//! it presents when the upstream asks for one ([`ClientIdentity`], mutual TLS), with the host's names for those
//! settings; and [`TlsProblem`], a failed handshake read as the setting that fixes it.
//!
//! The TLS backend is OpenSSL through `native-tls` (reqwest's `native-tls` feature): the system's CAs are OpenSSL's
//! (its default file and directory, or `SSL_CERT_FILE` / `SSL_CERT_DIR` when set), and a [`CaBundle`] adds to them.

use std::fmt;
use std::sync::Arc;

/// CA certificates an upstream's server certificate may chain to, besides the system's: a private CA (GitHub
/// Enterprise Server, a CircleCI server install, Jira Data Center behind the company's CA). Cheap to clone.
///
/// `Debug` shows how many certificates it holds.
#[derive(Clone)]
pub struct CaBundle {
    certs: Arc<[reqwest::Certificate]>,
}

impl CaBundle {
    /// Every `-----BEGIN CERTIFICATE-----` block of `pem` (RFC 7468), in order; text around the blocks is ignored.
    ///
    /// Errors: [`PemError::NoCertificate`] when it holds none; [`PemError::Unreadable`] when a block is not a
    /// certificate the TLS backend reads. The texts never quote the file.
    pub fn from_pem(pem: &[u8]) -> Result<Self, PemError> {
        let certs = reqwest::Certificate::from_pem_bundle(pem).map_err(|err| PemError::Unreadable(cause(&err)))?;
        if certs.is_empty() {
            return Err(PemError::NoCertificate);
        }
        Ok(Self { certs: certs.into() })
    }

    /// How many certificates it holds (at least one).
    pub fn len(&self) -> usize {
        self.certs.len()
    }

    /// Always false: a bundle holds at least one certificate.
    pub fn is_empty(&self) -> bool {
        self.certs.is_empty()
    }
}

impl fmt::Debug for CaBundle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CaBundle({} certificates)", self.certs.len())
    }
}

/// A client certificate and its private key, presented to an upstream that asks for one during the TLS handshake
/// (mutual TLS, RFC 8446 §4.3.2). The key never leaves the process (the handshake sends a signature), and `Debug`
/// never shows it.
#[derive(Clone)]
pub struct ClientIdentity {
    identity: reqwest::Identity,
}

impl ClientIdentity {
    /// The client certificate (`cert_pem`: its `CERTIFICATE` block, then any intermediate CA certificates to send
    /// with it) and its private key (`key_pem`: a PKCS#8 `-----BEGIN PRIVATE KEY-----` block, RFC 5958; other blocks
    /// in the file are ignored). A PKCS#1 (`RSA PRIVATE KEY`) or SEC1 (`EC PRIVATE KEY`) key is refused with the
    /// `openssl pkcs8` command that converts it, an encrypted key is refused. The pair is loaded into the TLS
    /// backend once here, so a key that is not the certificate's fails now rather than at the first call.
    ///
    /// Errors: [`IdentityError`], saying which file is at fault. The texts never quote either file.
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<Self, IdentityError> {
        let certs = reqwest::Certificate::from_pem_bundle(cert_pem)
            .map_err(|err| IdentityError::Certificate(PemError::Unreadable(cause(&err))))?;
        if certs.is_empty() {
            return Err(IdentityError::Certificate(PemError::NoCertificate));
        }
        let key = pkcs8_block(key_pem).map_err(IdentityError::Key)?;
        let identity = reqwest::Identity::from_pkcs8_pem(cert_pem, key)
            .map_err(|err| IdentityError::Key(PemError::Unreadable(cause(&err))))?;
        // The backend pairs the key with the certificate only when a connector is built.
        reqwest::Client::builder()
            .no_proxy()
            .identity(identity.clone())
            .build()
            .map_err(|err| IdentityError::Mismatch(cause(&err)))?;
        Ok(Self { identity })
    }
}

impl fmt::Debug for ClientIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ClientIdentity(***)")
    }
}

/// The PKCS#8 private-key block of `pem`, from its `BEGIN` line on.
fn pkcs8_block(pem: &[u8]) -> Result<&[u8], PemError> {
    let find = |label: &str| memchr::memmem::find(pem, format!("-----BEGIN {label}-----").as_bytes());
    if let Some(start) = find("PRIVATE KEY") {
        return Ok(&pem[start..]);
    }
    if find("ENCRYPTED PRIVATE KEY").is_some() {
        return Err(PemError::EncryptedKey);
    }
    for (label, kind) in [("RSA PRIVATE KEY", "a PKCS#1 RSA"), ("EC PRIVATE KEY", "a SEC1 EC")] {
        if find(label).is_some() {
            return Err(PemError::NotPkcs8 { kind });
        }
    }
    Err(PemError::NoPrivateKey)
}

/// The causes of a reqwest error, without reqwest's own text (which names no file, but may name a URL).
fn cause(err: &reqwest::Error) -> String {
    let mut causes = Vec::new();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        causes.push(cause.to_string());
        source = cause.source();
    }
    if causes.is_empty() {
        "not PEM the TLS backend reads".to_owned()
    } else {
        causes.join(": ")
    }
}

/// Why a PEM file cannot be used. The texts never quote the file.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PemError {
    /// No `-----BEGIN CERTIFICATE-----` block.
    #[error("holds no PEM certificate (a `-----BEGIN CERTIFICATE-----` block)")]
    NoCertificate,
    /// No private-key block.
    #[error("holds no PEM private key (a `-----BEGIN PRIVATE KEY-----` block)")]
    NoPrivateKey,
    /// A private key in a form the TLS backend does not read.
    #[error(
        "holds {kind} private key, and only PKCS#8 keys (`-----BEGIN PRIVATE KEY-----`) are read: convert it with \
         `openssl pkcs8 -topk8 -nocrypt -in KEY.pem -out KEY-pkcs8.pem`"
    )]
    NotPkcs8 {
        /// `a PKCS#1 RSA` or `a SEC1 EC`.
        kind: &'static str,
    },
    /// An encrypted private key.
    #[error(
        "holds an encrypted private key: give it unencrypted (PKCS#8, `-----BEGIN PRIVATE KEY-----`) in a file only \
         the server's user can read"
    )]
    EncryptedKey,
    /// A block the TLS backend cannot read.
    #[error("cannot be read: {0}")]
    Unreadable(String),
}

/// Why a client certificate and key cannot be used ([`ClientIdentity::from_pem`]): which file is at fault.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// The certificate file.
    #[error("the client certificate {0}")]
    Certificate(PemError),
    /// The private-key file.
    #[error("the private key {0}")]
    Key(PemError),
    /// Both read, but the TLS backend refused the pair (most often: the key is not the certificate's).
    #[error("the TLS backend refused the certificate and key (is the key the certificate's?): {0}")]
    Mismatch(String),
}

/// What the host calls the TLS settings of one upstream, named by [`TlsProblem`]'s texts. [`Default`]: `ca_bundle`,
/// `client_cert`, `client_key`; the bundled server gives its names (`GITHUB_CA_BUNDLE`, …).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TlsSettingNames {
    /// The CA-bundle setting ([`TlsOptions::ca_bundle`]).
    pub ca_bundle: &'static str,
    /// The client-certificate setting ([`TlsOptions::identity`]).
    pub client_cert: &'static str,
    /// The client-key setting ([`TlsOptions::identity`]).
    pub client_key: &'static str,
}

crate::setters!(TlsSettingNames {
    with_ca_bundle(ca_bundle: &'static str);
    with_client_cert(client_cert: &'static str);
    with_client_key(client_key: &'static str);
});

impl Default for TlsSettingNames {
    fn default() -> Self {
        Self {
            ca_bundle: "ca_bundle",
            client_cert: "client_cert",
            client_key: "client_key",
        }
    }
}

/// The TLS settings of one upstream's client. [`Default`]: the system's CAs only, no client certificate.
#[non_exhaustive]
#[derive(Debug, Clone, Default)]
pub struct TlsOptions {
    /// CA certificates trusted besides the system's; `None`: the system's only. Applies to every host the client
    /// calls (the API, and the handoffs to log and artifact hosts).
    pub ca_bundle: Option<CaBundle>,
    /// The client certificate presented when the API's host asks for one; `None`: none. Never presented on a
    /// handoff to another host ([`crate::Download`]).
    pub identity: Option<ClientIdentity>,
    /// What the host calls these settings, for error texts.
    pub names: TlsSettingNames,
}

crate::setters!(TlsOptions {
    with_ca_bundle(ca_bundle: Option<CaBundle>);
    with_identity(identity: Option<ClientIdentity>);
    with_names(names: TlsSettingNames);
});

impl TlsOptions {
    /// `builder` trusting [`TlsOptions::ca_bundle`] besides the system's CAs and, with `present_identity`,
    /// presenting [`TlsOptions::identity`].
    pub(crate) fn apply(&self, mut builder: reqwest::ClientBuilder, present_identity: bool) -> reqwest::ClientBuilder {
        if let Some(bundle) = &self.ca_bundle {
            builder = builder.tls_certs_merge(bundle.certs.iter().cloned());
        }
        if let (true, Some(identity)) = (present_identity, &self.identity) {
            builder = builder.identity(identity.identity.clone());
        }
        builder
    }

    /// What a failed request says about TLS, when a setting fixes it (see [`TlsProblem`]); `identity_sent`: whether
    /// [`TlsOptions::identity`] was presented, `None` on a host it is never presented to (whose client-certificate
    /// alerts no setting fixes). `None` for any other failure.
    pub(crate) fn problem(&self, err: &reqwest::Error, identity_sent: Option<bool>) -> Option<TlsProblem> {
        let mut text = String::new();
        let mut source = std::error::Error::source(err);
        while let Some(cause) = source {
            text.push_str(&cause.to_string());
            text.push('\n');
            source = cause.source();
        }
        read_failure(&text, identity_sent, self.names)
    }
}

/// A TLS handshake that failed in a way a setting fixes, read from OpenSSL's texts (the server's certificate did
/// not verify; the server sent a TLS alert about the client's certificate, RFC 8446 §6.2). Never retried: the next
/// attempt would fail the same way.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TlsProblem {
    /// The server's certificate does not chain to a trusted CA (or is expired, or self-signed).
    #[error(
        "its TLS certificate is not trusted ({reason}); if a private CA issued it, set {setting} to a PEM file of \
         that CA's certificate (the system's CAs stay trusted)"
    )]
    UntrustedCertificate {
        /// OpenSSL's verification result, e.g. `unable to get local issuer certificate`.
        reason: String,
        /// The CA-bundle setting.
        setting: &'static str,
    },
    /// The server's certificate is not for the host that was called.
    #[error("its TLS certificate is not for this host name ({reason}); call it by a name the certificate lists")]
    WrongHost {
        /// OpenSSL's verification result.
        reason: String,
    },
    /// The server asked for a client certificate and none was presented.
    #[error(
        "it asks for a client certificate (mutual TLS) and none was sent; set {cert} and {key} to PEM files of \
         the certificate and its private key"
    )]
    ClientCertificateRequired {
        /// The client-certificate setting.
        cert: &'static str,
        /// The client-key setting.
        key: &'static str,
    },
    /// The server refused the client certificate presented.
    #[error(
        "it refused the client certificate of {cert} ({reason}); give one its CA issued for this client, and {key} \
         its private key"
    )]
    ClientCertificateRefused {
        /// The TLS alert the server sent, e.g. `tlsv1 alert unknown ca`.
        reason: String,
        /// The client-certificate setting.
        cert: &'static str,
        /// The client-key setting.
        key: &'static str,
    },
}

/// The alerts (OpenSSL's texts) a server sends about the client's certificate, or its absence.
const CLIENT_CERTIFICATE_ALERTS: &[&str] = &[
    "alert certificate required",
    "alert handshake failure",
    "alert bad certificate",
    "alert unknown ca",
    "alert certificate unknown",
    "alert unsupported certificate",
    "alert certificate revoked",
    "alert certificate expired",
    "alert access denied",
];

/// [`TlsProblem`] from the text of an error's causes (one per line).
fn read_failure(text: &str, identity_sent: Option<bool>, names: TlsSettingNames) -> Option<TlsProblem> {
    if let Some(at) = text.find("certificate verify failed") {
        // native-tls appends OpenSSL's verification result in parentheses: `… certificate verify failed: … (unable
        // to get local issuer certificate)`.
        let after = &text[at..];
        let reason = after
            .rfind('(')
            .and_then(|open| {
                after[open + 1..]
                    .find(')')
                    .map(|close| &after[open + 1..open + 1 + close])
            })
            .unwrap_or("certificate verify failed")
            .to_owned();
        if reason.contains("hostname mismatch") || reason.contains("IP address mismatch") {
            return Some(TlsProblem::WrongHost { reason });
        }
        return Some(TlsProblem::UntrustedCertificate {
            reason,
            setting: names.ca_bundle,
        });
    }
    let identity_sent = identity_sent?;
    let alert = CLIENT_CERTIFICATE_ALERTS.iter().find(|alert| text.contains(*alert))?;
    let (cert, key) = (names.client_cert, names.client_key);
    if !identity_sent {
        return Some(TlsProblem::ClientCertificateRequired { cert, key });
    }
    let reason = text
        .find(alert)
        .and_then(|at| {
            text[..at]
                .rfind(['\n', ':'])
                .map(|start| text[start + 1..at + alert.len()].trim())
        })
        .unwrap_or(alert)
        .to_owned();
    Some(TlsProblem::ClientCertificateRefused { reason, cert, key })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: TlsSettingNames = TlsSettingNames {
        ca_bundle: "GITHUB_CA_BUNDLE",
        client_cert: "GITHUB_CLIENT_CERT",
        client_key: "GITHUB_CLIENT_KEY",
    };

    #[test]
    fn reads_openssl_failures_as_the_setting_that_fixes_them() {
        let untrusted = "client error (Connect)\nerror:0A000086:SSL routines:tls_post_process_server_certificate:\
                         certificate verify failed:../ssl/statem/statem_clnt.c:2092: (unable to get local issuer \
                         certificate)\n";
        assert_eq!(
            read_failure(untrusted, None, NAMES),
            Some(TlsProblem::UntrustedCertificate {
                reason: "unable to get local issuer certificate".to_owned(),
                setting: "GITHUB_CA_BUNDLE"
            })
        );
        let host = "error:0A000086:SSL routines::certificate verify failed: (hostname mismatch)\n";
        assert!(matches!(
            read_failure(host, Some(false), NAMES),
            Some(TlsProblem::WrongHost { .. })
        ));
        let required = "error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:x.c:1:SSL \
                        alert number 116\n";
        assert_eq!(
            read_failure(required, Some(false), NAMES),
            Some(TlsProblem::ClientCertificateRequired {
                cert: "GITHUB_CLIENT_CERT",
                key: "GITHUB_CLIENT_KEY"
            })
        );
        let refused = "error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:x.c:1:SSL alert number 48\n";
        assert_eq!(
            read_failure(refused, Some(true), NAMES),
            Some(TlsProblem::ClientCertificateRefused {
                reason: "tlsv1 alert unknown ca".to_owned(),
                cert: "GITHUB_CLIENT_CERT",
                key: "GITHUB_CLIENT_KEY"
            })
        );
        assert_eq!(
            read_failure(required, None, NAMES),
            None,
            "another host: not the settings' to fix"
        );
        assert_eq!(
            read_failure("tcp connect error: Connection refused\n", Some(false), NAMES),
            None
        );
    }

    #[test]
    fn pem_files_are_refused_naming_what_is_wrong() {
        assert_eq!(CaBundle::from_pem(b"no pem here").unwrap_err(), PemError::NoCertificate);
        let garbage = b"-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n";
        assert!(matches!(CaBundle::from_pem(garbage), Err(PemError::Unreadable(_))));
        assert_eq!(
            pkcs8_block(b"-----BEGIN RSA PRIVATE KEY-----\nx\n"),
            Err(PemError::NotPkcs8 { kind: "a PKCS#1 RSA" })
        );
        assert_eq!(
            pkcs8_block(b"-----BEGIN ENCRYPTED PRIVATE KEY-----\nx\n"),
            Err(PemError::EncryptedKey)
        );
        assert_eq!(pkcs8_block(b"nothing"), Err(PemError::NoPrivateKey));
        let key = b"junk\n-----BEGIN PRIVATE KEY-----\nx\n";
        assert_eq!(pkcs8_block(key).ok(), Some(&key[5..]));
        assert!(format!("{:?}", TlsOptions::default()).contains("identity: None"));
    }
}
