//! Accounts made at start: the organizers (`[accounts] admins`) and, in roster mode, every
//! roster row. A new account gets no password but a one-time setup token: its owner opens
//! `/setup/TOKEN` and chooses a password. Tokens are written to `setup-tokens.txt` in the
//! data directory (mode 0600, appended at each start that makes accounts), the only place
//! they exist in clear: the database keeps their SHA-256. This beats initial passwords in the
//! roster (a file of clear passwords the organizer must invent, mail, and that stay valid)
//! and needs no mail server.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Secret;
use super::roster::{RosterEntry, read_roster};
use crate::config::{Contest, Registration};
use crate::storage::{Db, StorageError};

/// A new account's setup token, to be handed to its owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupToken {
    pub name: String,
    pub token: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ProvisionError {
    #[error(transparent)]
    Roster(#[from] super::roster::RosterError),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error("cannot write {0}: {1}")]
    Write(PathBuf, #[source] std::io::Error),
}

/// Creates the missing admin and roster accounts and flags the admins. Returns the setup
/// tokens of the accounts it created (none on a restart).
pub async fn provision(db: &Db, contest: &Contest) -> Result<Vec<SetupToken>, ProvisionError> {
    let mut wanted: Vec<(RosterEntry, bool)> = contest
        .accounts
        .admins
        .iter()
        .map(|name| {
            let entry = RosterEntry {
                name: name.clone(),
                display_name: name.clone(),
            };
            (entry, true)
        })
        .collect();
    if let Registration::Roster(path) = &contest.accounts.registration {
        for entry in read_roster(path)? {
            match wanted.iter_mut().find(|(w, _)| w.name == entry.name) {
                // An organizer also on the roster keeps the roster's display name.
                Some((w, _)) => w.display_name = entry.display_name,
                None => wanted.push((entry, false)),
            }
        }
    }
    let mut tokens = Vec::new();
    for (entry, admin) in wanted {
        match db.user_by_name(&entry.name).await? {
            Some(user) => {
                if admin && !user.is_admin {
                    db.set_admin(user.id, true).await?;
                }
            }
            None => {
                let secret = Secret::new()?;
                db.create_user(
                    &entry.name,
                    &entry.display_name,
                    None,
                    Some(&secret.digest),
                    admin,
                )
                .await?;
                tokens.push(SetupToken {
                    name: entry.name,
                    token: secret.token,
                });
            }
        }
    }
    Ok(tokens)
}

/// Appends setup tokens to `dir/setup-tokens.txt` (created with mode 0600), one
/// `name /setup/TOKEN` line each. Returns the file's path.
pub fn write_setup_tokens(dir: &Path, tokens: &[SetupToken]) -> Result<PathBuf, ProvisionError> {
    let path = dir.join("setup-tokens.txt");
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&path)?;
        for t in tokens {
            writeln!(file, "{} /setup/{}", t.name, t.token)?;
        }
        file.sync_all()
    };
    write().map_err(|e| ProvisionError::Write(path.clone(), e))?;
    Ok(path)
}
