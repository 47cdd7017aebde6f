//! Reading an upload's multipart body: one `file` part, small text fields around it.

use std::collections::HashMap;

use axum::extract::Multipart;
use axum::http::StatusCode;

use super::WebError;
use crate::listen::deadline_body::BodyTimeout;

/// Longest text field of an upload form.
const MAX_FIELD: usize = 4096;

#[derive(Debug, Default)]
pub struct UploadForm {
    pub fields: HashMap<String, String>,
    /// The file's name as the client sent it, and its bytes.
    pub file: Option<(String, Vec<u8>)>,
}

impl UploadForm {
    pub fn field(&self, name: &str) -> &str {
        self.fields.get(name).map(String::as_str).unwrap_or("")
    }
}

/// Reads the whole form (the body limit of the route bounds it). A body over the limit is a
/// 413, one that did not arrive in time a 408, anything else unreadable a 400: the body is
/// the client's (a connection cut mid-upload makes axum say 500, which would blame the
/// server).
pub async fn read_upload(mut multipart: Multipart) -> Result<UploadForm, WebError> {
    let failed = |e: axum::extract::multipart::MultipartError| {
        if let Some(timeout) = BodyTimeout::in_chain(&e) {
            return WebError::new(StatusCode::REQUEST_TIMEOUT, timeout.to_string());
        }
        match e.status() {
            StatusCode::PAYLOAD_TOO_LARGE => WebError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "the upload is larger than this contest accepts",
            ),
            _ => WebError::bad_request(format!("the form cannot be read: {}", e.body_text())),
        }
    };
    let mut form = UploadForm::default();
    while let Some(field) = multipart.next_field().await.map_err(failed)? {
        let name = field.name().unwrap_or("").to_string();
        if name == "file" {
            if form.file.is_some() {
                return Err(WebError::bad_request("one file per upload"));
            }
            let file_name = field.file_name().unwrap_or("").to_string();
            let bytes = field.bytes().await.map_err(failed)?;
            form.file = Some((file_name, bytes.to_vec()));
        } else {
            let text = field.text().await.map_err(failed)?;
            if text.len() > MAX_FIELD {
                return Err(WebError::bad_request(format!(
                    "the field {name:?} is too long"
                )));
            }
            form.fields.insert(name, text);
        }
    }
    Ok(form)
}
