//! What a replay page served by the site holds: its data element, and the replay's JSON
//! lines embedded in it (gzipped and base64-encoded, as the viewer inflates them).

use std::io::Read;

use base64::Engine;

/// The JSON of the page's `replay-data` element.
pub fn data(page: &str) -> serde_json::Value {
    let open = r#"<script type="application/json" id="replay-data">"#;
    let start = page.find(open).expect("a replay data element") + open.len();
    let end = start
        + page[start..]
            .find("</script>")
            .expect("the end of the data");
    serde_json::from_str(&page[start..end]).expect("the data is JSON")
}

/// The replay's lines in the page, as the viewer gets them.
pub fn replay_text(page: &str) -> String {
    let data = data(page);
    let encoded = data["replay_gzip_base64"]
        .as_str()
        .expect("the replay embedded compressed");
    let gz = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .expect("base64");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .expect("gzip");
    text
}
