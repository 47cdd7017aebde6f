//! The live view's page (`--watch`): the replay viewer, fed by server-sent events.

/// The page served at `/` by the live view.
pub fn live_page() -> anyhow::Result<String> {
    Ok(String::from(
        "<!doctype html><title>arena live</title><p>live view</p>",
    ))
}
