//! The life of a bot version: the states an upload goes through and the moves allowed
//! between them. Storage makes each move with a compare-and-set on the state (an UPDATE
//! WHERE state = the expected one), so two builders or a builder and the server never both
//! win; this module says which moves exist at all.

use std::fmt;

/// Where a bot version stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VersionState {
    /// Stored on disk, waiting for a builder.
    Uploaded,
    /// A builder holds it under a lease: compiling, then `check-bot`.
    Building,
    /// Built and checked: this is the version the ladder plays.
    Ready,
    /// The build or the check failed; its logs say why. Final.
    Failed,
    /// Was ready, replaced by a newer ready version of the same bot. Kept, never played again.
    Retired,
}

impl VersionState {
    pub const ALL: [VersionState; 5] = [
        VersionState::Uploaded,
        VersionState::Building,
        VersionState::Ready,
        VersionState::Failed,
        VersionState::Retired,
    ];

    /// The name stored in the database and shown to users.
    pub fn as_str(self) -> &'static str {
        match self {
            VersionState::Uploaded => "uploaded",
            VersionState::Building => "building",
            VersionState::Ready => "ready",
            VersionState::Failed => "failed",
            VersionState::Retired => "retired",
        }
    }

    pub fn parse(text: &str) -> Option<VersionState> {
        VersionState::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// Whether a version may move from `self` to `next`.
    ///
    /// `Building -> Uploaded` is a builder's lease expiring (it died): the upload is built
    /// again. Nothing leaves `Failed` or `Retired`: a fix is a new upload, so every version's
    /// logs stay what its owner saw.
    pub fn can_become(self, next: VersionState) -> bool {
        use VersionState::*;
        matches!(
            (self, next),
            (Uploaded, Building)
                | (Building, Ready)
                | (Building, Failed)
                | (Building, Uploaded)
                | (Ready, Retired)
        )
    }

    /// No move leaves this state.
    pub fn is_final(self) -> bool {
        VersionState::ALL.iter().all(|&next| !self.can_become(next))
    }
}

impl fmt::Display for VersionState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a build ended, as a builder reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOutcome {
    /// Built and passed `check-bot`.
    pub passed: bool,
    pub build_log: String,
    pub check_log: String,
    /// A passing build, packed for the workers (stored with the outcome).
    pub artifact: Option<super::artifact::Artifact>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use VersionState::*;

    #[test]
    fn names_round_trip() {
        for s in VersionState::ALL {
            assert_eq!(VersionState::parse(s.as_str()), Some(s));
        }
        assert_eq!(VersionState::parse("READY"), None);
    }

    #[test]
    fn the_allowed_moves_and_only_those() {
        let allowed = [
            (Uploaded, Building),
            (Building, Ready),
            (Building, Failed),
            (Building, Uploaded),
            (Ready, Retired),
        ];
        for from in VersionState::ALL {
            for to in VersionState::ALL {
                assert_eq!(
                    from.can_become(to),
                    allowed.contains(&(from, to)),
                    "{from} -> {to}"
                );
            }
        }
        assert!(Failed.is_final() && Retired.is_final());
        assert!(!Uploaded.is_final() && !Building.is_final() && !Ready.is_final());
    }
}
