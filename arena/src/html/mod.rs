//! HTML pages: a match replay viewer (`arena replay html`) and a tournament report (`arena
//! report`). A replay page and the report are each one file with its styles, script and data
//! inline (the data as JSON in a `<script type="application/json">` element); a report's
//! replay pages share one viewer script and stylesheet in their folder and embed their replay
//! compressed. The scripts draw the pages in the browser and nothing is fetched from the
//! network. The templates, styles and scripts are in `arena/assets/`.

mod compress;
mod error;
mod replay_page;
mod report_page;
mod template;

pub use error::{ReplayPageError, ReportError};
pub use replay_page::{
    BackLink, ReplayPageOptions, VIEWER_CSS, VIEWER_JS, ViewerLinks, linked_replay_page, live_page,
    replay_page, replay_title, shared_replay_page, viewer_script, viewer_style, write_replay_page,
    write_shared_replay_page, write_shared_viewer,
};
pub use report_page::{
    ReplaySelection, ReplaySelectionError, ReportData, ReportMatch, ReportSummary, TournamentInfo,
    parse_replays, replay_pages_dir, report_page, write_report,
};
pub use template::{escape_html, json_for_script};
