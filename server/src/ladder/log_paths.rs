//! The build and check logs, and a bot's stderr in its ladder replays, are what an owner
//! reads about their upload, so they speak of the upload's files as the owner named them: a
//! Python traceback says `File "bot.py"`, not `File "/srv/contest/data/builds/5097.../bot.py"`.
//! The server's own paths (the build directory or a worker's copy of it, the check's or the
//! match's scratch directory, the data directory, the Rust toolchain's real path) tell the
//! owner nothing and tell everyone how the server is laid out; they are rewritten before a
//! log or a replay is stored.

use std::path::Path;

/// The rewrites of one build's logs or one match's replay, longest path first (the data
/// directory holds the others, so it must come last).
#[derive(Clone, Debug, Default)]
pub struct LogPaths {
    rewrites: Vec<Rewrite>,
}

#[derive(Clone, Debug)]
struct Rewrite {
    from: String,
    to: String,
    /// A path without its trailing `/`: rewritten only where the name ends (`/b/5097` is not
    /// the start of `/b/50971`).
    whole_name: bool,
    /// `from` is a directory of numbered ones (`builds/`): `from` + digits is an upload.
    numbered: bool,
}

impl LogPaths {
    /// The build directory becomes the upload itself (`DIR/bot.py` is `bot.py`, `DIR` alone
    /// `.`), the check's scratch `<scratch>` (each scenario runs the bot in a directory of
    /// its own there), anything else under the data directory `<data>`.
    pub fn new(build_dir: &Path, scratch: &Path, data_dir: &Path) -> LogPaths {
        LogPaths::default()
            .dir(build_dir, ".")
            .dir(scratch, "<scratch>")
            .dir(data_dir, "<data>")
    }

    /// Also writes the directory `path` as `name` (`.` for an upload: `DIR/x` is `x`).
    pub fn dir(mut self, path: &Path, name: &str) -> LogPaths {
        self.add(path, name);
        // The same directory reached through a symlink (e.g. a data directory under a
        // linked /tmp): processes report the resolved path.
        if let Ok(real) = std::fs::canonicalize(path)
            && real != path
        {
            self.add(&real, name);
        }
        self
    }

    /// The rewrites for what the final round robin shows, which plays every entrant from its
    /// build directory: each `DATA/builds/ID` is its upload, the rest of the data directory
    /// `<data>`.
    pub fn of_data_dir(data_dir: &Path) -> LogPaths {
        let mut paths = LogPaths::default();
        let builds = data_dir.join("builds");
        for dir in [Some(builds.clone()), std::fs::canonicalize(&builds).ok()]
            .into_iter()
            .flatten()
        {
            let from = format!("{}/", dir.to_string_lossy().trim_end_matches('/'));
            paths.rewrites.push(Rewrite {
                from,
                to: String::new(),
                whole_name: false,
                numbered: true,
            });
        }
        paths.dir(data_dir, "<data>")
    }

    /// Also writes `path` as `name` (e.g. the toolchain's real `rustc` as `rustc`).
    pub fn and(mut self, path: &str, name: &str) -> LogPaths {
        if !path.is_empty() && path != name {
            self.push(path.to_string(), name.to_string(), true);
        }
        self
    }

    fn add(&mut self, path: &Path, name: &str) {
        let path = path.to_string_lossy().trim_end_matches('/').to_string();
        if path.is_empty() {
            return;
        }
        // `DIR/x` is `x` under the upload, `<scratch>/x` under the others.
        let inside = if name == "." {
            String::new()
        } else {
            format!("{name}/")
        };
        self.push(format!("{path}/"), inside, false);
        self.push(path, name.to_string(), true);
    }

    fn push(&mut self, from: String, to: String, whole_name: bool) {
        self.rewrites.push(Rewrite {
            from,
            to,
            whole_name,
            numbered: false,
        });
        self.rewrites
            .sort_by(|a, b| b.from.len().cmp(&a.from.len()).then(a.from.cmp(&b.from)));
    }

    /// `text` with every server path rewritten.
    pub fn apply(&self, text: &str) -> String {
        let mut out = text.to_string();
        for r in &self.rewrites {
            if out.contains(r.from.as_str()) {
                out = replace(&out, r);
            }
        }
        out
    }
}

/// Whether `c` may continue a file name (so a path followed by it names something else).
fn continues_name(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

fn replace(text: &str, r: &Rewrite) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(r.from.as_str()) {
        let mut after = &rest[at + r.from.len()..];
        out.push_str(&rest[..at]);
        if r.numbered {
            // `builds/ID/x` is `x`, `builds/ID` alone `.`; anything else stays.
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let next = after[digits..].chars().next();
            if digits == 0 || next.is_some_and(|c| c != '/' && continues_name(c)) {
                out.push_str(&r.from);
            } else if next == Some('/') {
                after = &after[digits + 1..];
            } else {
                out.push('.');
                after = &after[digits..];
            }
        } else if r.whole_name && after.chars().next().is_some_and(continues_name) {
            out.push_str(&r.from);
        } else {
            out.push_str(&r.to);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::LogPaths;
    use std::path::Path;

    #[test]
    fn server_paths_become_the_upload_and_placeholders() {
        let paths = LogPaths::new(
            Path::new("/srv/out/contest/builds/5097"),
            Path::new("/srv/out/contest/work/5097"),
            Path::new("/srv/out/contest"),
        )
        .and("/root/.rustup/toolchains/stable/bin/rustc", "rustc");
        let log = "Traceback (most recent call last):\n  \
                   File \"/srv/out/contest/builds/5097/crashy.py\", line 7, in <module>\n\
                   cwd /srv/out/contest/work/5097/scenario0\n\
                   ran /srv/out/contest/builds/5097\n\
                   cannot open /srv/out/contest/uploads/5097\n\
                   $ /root/.rustup/toolchains/stable/bin/rustc -O main.rs\n";
        assert_eq!(
            paths.apply(log),
            "Traceback (most recent call last):\n  \
             File \"crashy.py\", line 7, in <module>\n\
             cwd <scratch>/scenario0\n\
             ran .\n\
             cannot open <data>/uploads/5097\n\
             $ rustc -O main.rs\n"
        );
        // A build directory of another version is not this one: only the data directory goes.
        assert_eq!(
            paths.apply("/srv/out/contest/builds/50971/x.py"),
            "<data>/builds/50971/x.py"
        );
    }

    #[test]
    fn every_build_of_the_data_directory_is_its_upload() {
        let paths = LogPaths::of_data_dir(Path::new("/srv/data"));
        assert_eq!(
            paths.apply(
                "python3 /srv/data/builds/5097/bot.py; cd /srv/data/builds/42; \
                 /srv/data/builds/x1/y /srv/data/builds/ /srv/data/final/t"
            ),
            "python3 bot.py; cd .; <data>/builds/x1/y <data>/builds/ <data>/final/t"
        );
    }

    #[test]
    fn a_symlinked_directory_is_rewritten_both_ways() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("builds/7")).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let real = std::fs::canonicalize(&real).unwrap();
        let paths = LogPaths::new(&link.join("builds/7"), &link.join("work/7"), &link);
        let text = format!(
            "{}/bot.py and {}/bot.py",
            link.join("builds/7").display(),
            real.join("builds/7").display()
        );
        assert_eq!(paths.apply(&text), "bot.py and bot.py");
    }
}
