//! The redactor over bodies read in pieces: whatever the cuts, [`RedactStream`] gives byte for byte what
//! [`Redactor::redact_bytes`] gives for the whole body, and no secret, in any of its forms, and no signed-URL
//! credential survives either way.

use adapters_http::{RedactStream, Redactor};
use base64::Engine as _;
use proptest::prelude::*;

const TOKEN: &str = "ghp_Str3amTok/en+\"x\u{e9}0001";
const OTHER: &str = "circle_STREAM_secret_0002";
const USER: &str = "mia@example.com";
const PASSWORD: &str = "ATATT3xStreamPass0003";
/// Signed-URL credential values: each must be gone from every output.
const SIGNATURES: [&str; 6] = [
    "AzureSasSig0004%2Bvalue%3D",
    "AKIAIOSFODNN7EXAMPLE%2F20230110%2Fus-east-1%2Fs3%2Faws4_request",
    "f00dfacade0005aa11bb22",
    "FwoGZXIvYXdzSessionToken0006",
    "GcsV4Signature0007abcdef",
    "urlSig0008Zm9vYmFy",
];

fn redactor() -> Redactor {
    Redactor::builder()
        .secret("GITHUB_TOKEN", TOKEN)
        .secret("CIRCLECI_TOKEN", OTHER)
        .basic("ATLASSIAN_API_TOKEN", USER, PASSWORD)
        .signed_urls()
        .build()
}

/// Every form the redactor promises to find, of every secret.
fn forms() -> Vec<String> {
    let json = |s: &str| serde_json::to_string(s).unwrap().trim_matches('"').to_owned();
    let percent = |s: &str| {
        s.bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect::<String>()
    };
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"));
    let mut out = Vec::new();
    for secret in [TOKEN, OTHER, PASSWORD] {
        out.push(secret.to_owned());
        out.push(json(secret));
        out.push(percent(secret));
    }
    out.push(basic);
    out
}

/// Text that holds signed URLs (as a log line, in JSON, percent-encoded inside another URL, an S3 error body, an
/// echoed SigV4 `Authorization`).
fn signed_texts() -> Vec<String> {
    let [azure, cred, sig, session, gcs, url_sig] = SIGNATURES;
    vec![
        format!("GET https://results.blob.core.windows.net/logs/1.txt?sv=2021-08-06&se=2023&sig={azure} 403\n"),
        format!(
            "{{\"url\":\"https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256\\u0026X-Amz-Credential={cred}\\u0026X-Amz-Signature={sig}\\u0026X-Amz-Security-Token={session}\"}}"
        ),
        format!("next=https%3A%2F%2Fstorage.googleapis.com%2Fb%2Fo%3FX-Goog-Signature%3D{gcs}%26x%3D1"),
        format!(
            "<Error><Code>SignatureDoesNotMatch</Code><SignatureProvided>{sig}</SignatureProvided><AWSAccessKeyId>{cred}</AWSAccessKeyId></Error>"
        ),
        format!("Authorization: AWS4-HMAC-SHA256 Credential={cred}, SignedHeaders=host, Signature={sig}\r\n"),
        format!("see https://pipelines.actions.githubusercontent.com/x?urlSignature={url_sig}#frag"),
    ]
}

/// A body: filler around secrets' forms and signed texts, in an order and with fillers the test picks.
fn body() -> impl Strategy<Value = Vec<u8>> {
    let parts = forms().into_iter().chain(signed_texts()).collect::<Vec<_>>();
    let filler = prop_oneof![
        Just(String::new()),
        Just(" ".to_owned()),
        Just("\n2023-01-10T08:25:24.7Z echo $ENV: ".to_owned()),
        Just("x".to_owned()),
        Just("&".to_owned()),
        Just("token=".to_owned()),
        Just("\u{e9}\u{1F600}".to_owned()),
        "[a-z=&%?\\\\\"]{0,12}",
    ];
    prop::collection::vec((filler, prop::sample::select(parts)), 1..12).prop_map(|items| {
        let mut out = Vec::new();
        for (filler, part) in items {
            out.extend_from_slice(filler.as_bytes());
            out.extend_from_slice(part.as_bytes());
        }
        out
    })
}

/// `body` pushed in pieces cut at `cuts` (sorted, deduplicated positions).
fn streamed(stream: &mut RedactStream, body: &[u8], cuts: &[usize]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    for &cut in cuts {
        let cut = cut.min(body.len());
        if cut >= at {
            out.extend(stream.push(&body[at..cut]));
            at = cut;
        }
    }
    out.extend(stream.push(&body[at..]));
    out.extend(stream.finish());
    out
}

fn assert_clean(out: &[u8]) {
    let text = String::from_utf8_lossy(out);
    for form in forms() {
        assert!(!text.contains(&form), "{form:?} left in {text}");
    }
    for sig in SIGNATURES {
        assert!(!text.contains(sig), "{sig:?} left in {text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_cuts_give_the_whole_bodys_redaction(
        body in body(),
        mut cuts in prop::collection::vec(0usize..2048, 0..40),
        bytewise in any::<bool>(),
    ) {
        cuts.sort_unstable();
        let redactor = redactor();
        let whole = redactor.redact_bytes(&body).into_owned();
        assert_clean(&whole);
        let cuts: Vec<usize> = if bytewise { (0..body.len()).collect() } else { cuts };
        let pieces = streamed(&mut redactor.stream(), &body, &cuts);
        prop_assert_eq!(String::from_utf8_lossy(&pieces), String::from_utf8_lossy(&whole));
    }
}

#[test]
fn a_signed_urls_credentials_go_and_its_other_parameters_stay() {
    let redactor = redactor();
    let texts = signed_texts();
    let out = |i: usize| redactor.redact(&texts[i]).into_owned();
    assert_eq!(
        out(0),
        "GET https://results.blob.core.windows.net/logs/1.txt?sv=2021-08-06&se=2023&sig=[redacted] 403\n"
    );
    assert_eq!(
        out(1),
        "{\"url\":\"https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256\\u0026X-Amz-Credential=[redacted]\\u0026X-Amz-Signature=[redacted]\\u0026X-Amz-Security-Token=[redacted]\"}"
    );
    assert_eq!(
        out(2),
        "next=https%3A%2F%2Fstorage.googleapis.com%2Fb%2Fo%3FX-Goog-Signature%3D[redacted]%26x%3D1"
    );
    assert_eq!(
        out(3),
        "<Error><Code>SignatureDoesNotMatch</Code><SignatureProvided>[redacted]</SignatureProvided><AWSAccessKeyId>[redacted]</AWSAccessKeyId></Error>"
    );
    assert_eq!(
        out(4),
        "Authorization: AWS4-HMAC-SHA256 Credential=[redacted], SignedHeaders=host, Signature=[redacted]\r\n"
    );
    assert_eq!(
        out(5),
        "see https://pipelines.actions.githubusercontent.com/x?urlSignature=[redacted]#frag"
    );
}

#[test]
fn names_inside_longer_names_and_values_already_redacted_are_kept() {
    let redactor = redactor();
    for kept in [
        "?page-token=abc&next_page_token=def&design=1&assignee=mia",
        "\"nextPageToken\": \"abc\"",
        "a token of 12 chars",
    ] {
        assert_eq!(redactor.redact(kept), kept);
    }
    assert_eq!(
        redactor.redact(&format!("https://h.example/?token={OTHER}&x=1")),
        "https://h.example/?token=[redacted CIRCLECI_TOKEN]&x=1"
    );
    assert_eq!(redactor.redact("?token=abc&sig="), "?token=[redacted]&sig=[redacted]");
}
