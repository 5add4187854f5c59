//! Multipart uploads a put left unfinished (its replica was killed, or its caller's timeout dropped it): S3 keeps
//! their parts, billed and invisible to listings, until they are aborted. object_store 0.14 lists objects but not
//! uploads, so the list is one presigned `ListMultipartUploads` request (SigV4 by object_store's own signer); the
//! abort is object_store's `AbortMultipartUpload`.
//!
//! Sources: AWS S3 API Reference, "ListMultipartUploads" (`GET /?uploads&prefix=P`, the `Upload` elements with
//! `Key`, `UploadId`, `Initiated`) and "AbortMultipartUpload".

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use object_store::aws::AmazonS3;
use object_store::multipart::MultipartStore;
use object_store::path::Path;
use object_store::signer::{SignedUrlOptions, Signer};
use serde::Deserialize;

/// How long a presigned listing URL is valid: 5 minutes.
const URL_VALIDITY: Duration = Duration::from_secs(300);
/// The longest one listing request may take: 30 s.
const LIST_TIMEOUT: Duration = Duration::from_secs(30);

/// One page of `ListMultipartUploads` (the fields used here).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Listing {
    #[serde(default, rename = "Upload")]
    uploads: Vec<Upload>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Upload {
    key: String,
    upload_id: String,
    /// RFC 3339, e.g. `2026-12-01T20:00:00.000Z`.
    initiated: String,
}

/// Lists and aborts the bucket's unfinished multipart uploads under one prefix.
#[derive(Debug)]
pub(super) struct Uploads {
    s3: Arc<AmazonS3>,
    http: reqwest::Client,
}

impl Uploads {
    pub fn new(s3: Arc<AmazonS3>) -> Self {
        let http = reqwest::Client::builder()
            .timeout(LIST_TIMEOUT)
            .build()
            .unwrap_or_default();
        Self { s3, http }
    }

    /// Aborts every upload under `prefix` started before `started_before` (at most one listing page, 1,000
    /// uploads, per call); returns how many were aborted. Errors are logged, not returned: the next sweep retries.
    pub async fn abort_older_than(&self, prefix: &Path, started_before: SystemTime) -> usize {
        let listing = match self.list(prefix).await {
            Ok(listing) => listing,
            Err(err) => {
                tracing::warn!(error = %err, "listing unfinished S3 multipart uploads failed; retried next sweep");
                return 0;
            }
        };
        let mut aborted = 0;
        for upload in listing.uploads {
            let initiated = upload.initiated.parse::<jiff::Timestamp>().ok().map(SystemTime::from);
            if initiated.is_none_or(|at| at >= started_before) {
                continue;
            }
            let path = Path::from(upload.key);
            match self.s3.abort_multipart(&path, &upload.upload_id).await {
                Ok(()) => aborted += 1,
                Err(err) => tracing::warn!(error = %err, "aborting an unfinished S3 multipart upload failed"),
            }
        }
        if aborted > 0 {
            tracing::info!(aborted, "aborted unfinished S3 multipart uploads");
        }
        aborted
    }

    /// One page of `GET /?uploads&prefix=<prefix>/`.
    async fn list(&self, prefix: &Path) -> Result<Listing, String> {
        let mut wanted = prefix.as_ref().to_owned();
        if !wanted.is_empty() {
            wanted.push('/');
        }
        let options = SignedUrlOptions::default().with_query([("uploads", ""), ("prefix", wanted.as_str())]);
        let url = self
            .s3
            .signed_url_opts(http::Method::GET, &Path::default(), URL_VALIDITY, &options)
            .await
            .map_err(|e| e.to_string())?;
        let response = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|e| e.without_url().to_string())?;
        let status = response.status();
        let body = response.text().await.map_err(|e| e.without_url().to_string())?;
        if !status.is_success() {
            return Err(format!("HTTP {status}"));
        }
        quick_xml::de::from_str(&body).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_listing() {
        // The shape of the AWS S3 API Reference's ListMultipartUploads example response.
        let body = r#"<?xml version="1.0" encoding="UTF-8"?>
<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Bucket>bucket</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker>
  <MaxUploads>3</MaxUploads><IsTruncated>false</IsTruncated>
  <Upload><Key>p/data/k1</Key><UploadId>VXBsb2FkIElE</UploadId>
    <Initiator><ID>arn</ID><DisplayName>me</DisplayName></Initiator>
    <StorageClass>STANDARD</StorageClass><Initiated>2010-11-10T20:48:33.000Z</Initiated></Upload>
  <Upload><Key>p/data/k2</Key><UploadId>second</UploadId><Initiated>2010-11-10T20:49:33.000Z</Initiated></Upload>
</ListMultipartUploadsResult>"#;
        let listing: Listing = quick_xml::de::from_str(body).expect("parses");
        let keys: Vec<_> = listing
            .uploads
            .iter()
            .map(|u| (u.key.as_str(), u.upload_id.as_str()))
            .collect();
        assert_eq!(keys, [("p/data/k1", "VXBsb2FkIElE"), ("p/data/k2", "second")]);
        assert!(listing.uploads[0].initiated.parse::<jiff::Timestamp>().is_ok());
        let empty: Listing = quick_xml::de::from_str("<ListMultipartUploadsResult/>").expect("parses");
        assert!(empty.uploads.is_empty());
    }
}
