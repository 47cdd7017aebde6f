//! Self-contained HTML pages: a match replay viewer (`arena replay html`) and a tournament
//! report (`arena report`). Each page is one file with its styles, script and data inline
//! (the data as JSON in a `<script type="application/json">` element); the script draws the
//! page in the browser and nothing is fetched from the network. The templates, styles and
//! scripts are in `arena/assets/`.

mod live_page;
mod replay_page;
mod report_page;
mod template;

pub use live_page::live_page;
pub use replay_page::{
    BackLink, ReplayPageOptions, cmd_replay_html, replay_page, replay_title, write_replay_page,
};
pub use report_page::{
    ReportData, ReportMatch, ReportSummary, TournamentInfo, cmd_report, replay_pages_dir,
    report_page, write_report,
};
pub use template::{escape_html, json_for_script};
