//! The process's limit of open files: raised to what the system allows (systemd starts
//! services with a soft limit of 1,024 and a far higher hard one), and the connection cap
//! kept well under it, since a server out of descriptors can accept no one, open no database
//! connection and start no build.

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

/// Descriptors kept for everything but connections: the database pool, builds, workers and
/// their bots, log files.
const RESERVED: u64 = 256;

/// Raises the soft limit of open files to the hard limit; returns the soft limit now in
/// force (`None`: unlimited).
pub fn raise_soft_limit() -> Option<u64> {
    let limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        let raised = Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if let Err(e) = setrlimit(Resource::Nofile, raised) {
            tracing::warn!("cannot raise the limit of open files: {e}");
        }
    }
    getrlimit(Resource::Nofile).current
}

/// The connection cap that fits under `open_files`: at most half of it, minus what the
/// rest of the server needs, at least 1.
pub fn connection_cap(wanted: u64, open_files: Option<u64>) -> u64 {
    match open_files {
        None => wanted,
        Some(limit) => wanted.min((limit / 2).saturating_sub(RESERVED).max(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_stays_well_under_the_limit_of_open_files() {
        assert_eq!(connection_cap(2048, Some(1024)), 256);
        assert_eq!(connection_cap(2048, Some(524_288)), 2048);
        assert_eq!(connection_cap(2048, None), 2048);
        assert_eq!(connection_cap(2048, Some(100)), 1);
    }

    #[test]
    fn raising_leaves_the_soft_limit_at_the_hard_one() {
        let soft = raise_soft_limit();
        assert_eq!(soft, getrlimit(Resource::Nofile).maximum);
    }
}
