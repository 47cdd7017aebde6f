//! `page_cache = "drop"`: the machine's page cache is emptied between the matches of a
//! duplicate block.
//!
//! The copy of a bot in one half of a block holds exactly the cards its opponent holds in the
//! other. The halves never run at once (a job slot plays a block's matches one after the
//! other), but the page cache outlives a sandbox: the first copy reads chosen pages of a
//! large file every sandbox binds (caching them), the second times reads of the same pages
//! (a cached page comes back in microseconds, an uncached one from the disk). The filter
//! denies the calls that evict pages or test them without reading (`posix_fadvise`,
//! `mincore`, `RWF_NOWAIT`, `cachestat`), but a timed read cannot be told from a read, so
//! on one machine only emptying the cache between the halves leaves the second copy nothing
//! to find (and the dentry cache with it: a name looked up and found missing is remembered
//! too). ARCHITECTURE.md ("Collusion and covert channels") has the measurements.
//!
//! It needs root (`/proc/sys/vm/drop_caches`) and `--jobs 1`: with other blocks' matches
//! running meanwhile, a bot of the same author there could keep pages mapped (and so cached)
//! through the drop. It costs every bot's start after it a cold read of its runtime.

use std::io;

/// What happens to the page cache between the matches of a duplicate block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PageCache {
    /// Left alone (the default): a residual channel between the halves, measured and
    /// documented.
    #[default]
    Shared,
    /// Emptied (clean pages, dentries and inodes) after each match of a block but the last.
    Drop,
}

impl PageCache {
    /// The value of `page_cache` in a tournament file.
    pub fn parse(text: &str) -> Option<PageCache> {
        match text {
            "shared" => Some(PageCache::Shared),
            "drop" => Some(PageCache::Drop),
            _ => None,
        }
    }
}

/// Why the mode cannot run here, if it cannot: `None` when it can.
pub fn unavailable(jobs: usize) -> Option<String> {
    if jobs > 1 {
        return Some(format!(
            "page_cache = \"drop\" needs --jobs 1 (got {jobs}): a bot playing another block \
             meanwhile could keep pages cached through the drop"
        ));
    }
    if !sandbox::running_as_root() {
        return Some(
            "page_cache = \"drop\" needs root: only root may empty the page cache \
             (/proc/sys/vm/drop_caches)"
                .to_string(),
        );
    }
    None
}

/// Empties the machine's clean page cache, dentries and inodes (`3`). Dirty pages are not
/// dropped, but no bot can write a file another bot reads.
pub fn drop_now() -> io::Result<()> {
    std::fs::write("/proc/sys/vm/drop_caches", "3\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_values() {
        assert_eq!(PageCache::parse("shared"), Some(PageCache::Shared));
        assert_eq!(PageCache::parse("drop"), Some(PageCache::Drop));
        assert_eq!(PageCache::parse("Drop"), None);
        assert_eq!(PageCache::default(), PageCache::Shared);
    }

    #[test]
    fn more_than_one_job_is_refused() {
        let why = unavailable(2).unwrap();
        assert!(why.contains("--jobs 1"), "{why}");
    }
}
