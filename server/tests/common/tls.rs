//! A TLS upstream on 127.0.0.1 with certificates the test makes: [`TestCa`] (rcgen) issues a server certificate for
//! `localhost` and `127.0.0.1`, and client certificates; [`TlsUpstream`] (OpenSSL through tokio-openssl, hyper)
//! serves one fixture body to every `GET`, optionally requires a client certificate its client CA issued (mutual
//! TLS), and counts the TCP connections it accepted and the HTTP requests it answered.

use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use http_body_util::Full;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use openssl::pkey::PKey;
use openssl::ssl::{Ssl, SslAcceptor, SslMethod, SslVerifyMode};
use openssl::x509::X509;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The body every `GET` gets: CircleCI's `/me` fixture (any JSON object serves the free-path reads).
pub const FIXTURE: &str = "circleci/me.json";

/// The fixture's bytes.
pub fn fixture_bytes() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(FIXTURE);
    std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// A certificate authority made for one test.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A certificate and its private key, PEM (the key PKCS#8).
pub struct Issued {
    pub cert: String,
    pub key: String,
}

impl TestCa {
    /// A self-signed CA called `name`.
    pub fn new(name: &str) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        TestCa {
            issuer: CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap(),
        }
    }

    /// The CA's certificate, PEM.
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A server certificate for `localhost` and `127.0.0.1`.
    pub fn server(&self) -> Issued {
        self.issue(&["localhost", "127.0.0.1"], ExtendedKeyUsagePurpose::ServerAuth)
    }

    /// A client certificate (TLS client authentication) for `name`.
    pub fn client(&self, name: &str) -> Issued {
        self.issue(&[name], ExtendedKeyUsagePurpose::ClientAuth)
    }

    fn issue(&self, names: &[&str], usage: ExtendedKeyUsagePurpose) -> Issued {
        let mut params = CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap();
        params.distinguished_name.push(DnType::CommonName, names[0]);
        params.extended_key_usages = vec![usage];
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Issued {
            cert: cert.pem(),
            key: key.serialize_pem(),
        }
    }
}

/// Writes `text` to `dir/name` and returns its path as a string (a setting's value).
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The TLS upstream; stops when dropped.
pub struct TlsUpstream {
    port: u16,
    connections: Arc<AtomicUsize>,
    requests: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl TlsUpstream {
    /// Serves [`FIXTURE`] over TLS with a certificate `ca` issued; with `client_ca`, only to clients that present a
    /// certificate it issued.
    pub async fn start(ca: &TestCa, client_ca: Option<&TestCa>) -> TlsUpstream {
        let issued = ca.server();
        let mut acceptor = SslAcceptor::mozilla_intermediate_v5(SslMethod::tls_server()).unwrap();
        acceptor
            .set_certificate(&X509::from_pem(issued.cert.as_bytes()).unwrap())
            .unwrap();
        acceptor
            .set_private_key(&PKey::private_key_from_pem(issued.key.as_bytes()).unwrap())
            .unwrap();
        if let Some(client_ca) = client_ca {
            let cert = X509::from_pem(client_ca.pem().as_bytes()).unwrap();
            acceptor.cert_store_mut().add_cert(cert).unwrap();
            acceptor.set_verify(SslVerifyMode::PEER | SslVerifyMode::FAIL_IF_NO_PEER_CERT);
        }
        let acceptor = Arc::new(acceptor.build());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let connections = Arc::new(AtomicUsize::new(0));
        let requests = Arc::new(AtomicUsize::new(0));
        let body = Bytes::from(fixture_bytes());
        let (counted, answered) = (connections.clone(), requests.clone());
        let task = tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::SeqCst);
                let (acceptor, answered, body) = (acceptor.clone(), answered.clone(), body.clone());
                tokio::spawn(async move {
                    let ssl = Ssl::new(acceptor.context()).unwrap();
                    let mut stream = tokio_openssl::SslStream::new(ssl, tcp).unwrap();
                    if Pin::new(&mut stream).accept().await.is_err() {
                        // As real servers close (nginx's lingering close): the TLS alert, then a FIN, then what the
                        // client still sends is read and dropped for a while. Closed at once, the client's request
                        // (TLS 1.3 clients send it right after their half of the handshake) would draw a reset that
                        // discards the alert before the client reads it.
                        let tcp = stream.get_mut();
                        let _ = tcp.shutdown().await;
                        let mut sink = [0u8; 4096];
                        let drain = async { while matches!(tcp.read(&mut sink).await, Ok(n) if n > 0) {} };
                        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), drain).await;
                        return;
                    }
                    let service = service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                        answered.fetch_add(1, Ordering::SeqCst);
                        let body = body.clone();
                        async move {
                            let status = if request.method() == hyper::Method::GET {
                                200
                            } else {
                                405
                            };
                            hyper::Response::builder()
                                .status(status)
                                .header("content-type", "application/json")
                                .body(Full::new(body))
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        TlsUpstream {
            port,
            connections,
            requests,
            task,
        }
    }

    /// `https://HOST:PORT`, `host` being `localhost` or `127.0.0.1` (both in the certificate).
    pub fn uri(&self, host: &str) -> String {
        format!("https://{host}:{}", self.port)
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// TCP connections accepted so far (a failed handshake counts).
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// HTTP requests answered so far (after a completed handshake).
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

impl Drop for TlsUpstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}
