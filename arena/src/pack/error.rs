//! Why `arena pack` packed nothing. Most are refusals, said in words for the user (exit status
//! 2): what the server could not build or run, and what to do instead. Reading the bot's
//! files and writing the zip are failures (exit status 1).

use std::io;
use std::path::PathBuf;

use super::plan::{Language, Member};
use crate::console::exit::{ExitKind, HasExitKind};
use crate::console::output::io_reason;

#[derive(Debug, thiserror::Error)]
pub enum PackError {
    #[error(
        "-o {}: the name must end in .zip (the server tells an archive from a single source \
         file by its name)",
        out.display()
    )]
    OutNotZip { out: PathBuf },
    #[error("-o {}: that is {}, a file being packed", out.display(), member.display())]
    OutIsPacked { out: PathBuf, member: PathBuf },
    #[error("{}: no such folder", dir.display())]
    NoSuchFolder { dir: PathBuf },
    #[error("--main {}: no such file in {}", main.display(), dir.display())]
    NoSuchMain { main: PathBuf, dir: PathBuf },
    #[error(
        "{}: not a source file of a language the server builds (.py, .js, .c, .java, .rs)",
        main.display()
    )]
    NotASource { main: PathBuf },
    #[error("--add {}: no such file in {}", added.display(), dir.display())]
    NoSuchAddition { added: PathBuf, dir: PathBuf },
    #[error(
        "{} and {} would be packed as {} and {}, names that differ only in case: the server \
         refuses such an upload; rename one",
        first.from.display(),
        second.from.display(),
        first.name,
        second.name
    )]
    CaseClash { first: Member, second: Member },
    /// A file to pack whose real path cannot be found: said as the path and the reason.
    #[error("{}: {}", path.display(), io_reason(reason))]
    Unresolvable { path: PathBuf, reason: io::Error },
    #[error(
        "{} is outside {}, the main file's folder: the upload holds that folder's files only",
        path.display(),
        root.display()
    )]
    OutsideRoot { path: PathBuf, root: PathBuf },
    #[error(
        "{} holds no source file of a language the server builds (.py, .js, .c, .java, .rs)",
        dir.display()
    )]
    NoSources { dir: PathBuf },
    #[error(
        "{} holds {} sources: say which file is the bot with --main FILE",
        dir.display(),
        names(languages)
    )]
    SeveralLanguages {
        dir: PathBuf,
        languages: Vec<Language>,
    },
    #[error(
        "{} holds {} files but none is plainly the bot: choose it with --main FILE",
        dir.display(),
        language.name()
    )]
    NoPlainMain { dir: PathBuf, language: Language },
    /// `candidates`: relative to `dir`, as the user would give them to `--main`.
    #[error(
        "{} holds several {} bots ({}): choose one with --main, e.g. `arena pack {} --main {} \
         -o bot.zip`",
        dir.display(),
        language.name(),
        candidates.join(", "),
        dir.display(),
        candidates.last().map_or("", String::as_str)
    )]
    SeveralMains {
        dir: PathBuf,
        language: Language,
        candidates: Vec<String>,
    },
    /// Another file the main file uses has the name the main file is packed as (`wanted`).
    #[error(
        "{} uses {}, but the server runs the file called {wanted}: rename {} (and what \
         imports it) to pack {} as the bot",
        main.display(),
        other.display(),
        other.display(),
        main.display()
    )]
    MainNameTaken {
        main: PathBuf,
        other: PathBuf,
        wanted: String,
    },
    #[error("{} has no main function: choose the bot's file with --main", main.display())]
    NoMainFunction { main: PathBuf },
    #[error(
        "{} and {} both define main, and the server compiles every .c file into one program: \
         keep main in {} only",
        main.display(),
        other.display(),
        main.display()
    )]
    TwoMains { main: PathBuf, other: PathBuf },
    #[error(
        "{} declares a package, and the server compiles classes of the default package only: \
         remove its package line",
        file.display()
    )]
    JavaPackage { file: PathBuf },
    /// The server would run another Java class (`runs`, `None`: none) than the main one.
    #[error(
        "the server runs the class Main, else Bot, else the only class with a main method; \
         with these files ({}) it would run {}, not {main_class}: rename {main_class} to Main",
        classes.join(", "),
        runs.as_deref().unwrap_or("nothing")
    )]
    OtherJavaClassRuns {
        classes: Vec<String>,
        runs: Option<String>,
        main_class: String,
    },
    #[error(
        "{} loads {spec:?}, which is not there (tried .js, .mjs, .cjs, .json, /index.js)",
        file.display()
    )]
    MissingScript { file: PathBuf, spec: String },
    #[error(
        "{}: the server runs bot.js, and a .mjs or .cjs main cannot become one; name your \
         main file bot.js",
        main.display()
    )]
    ModuleMain { main: PathBuf },
    /// A Rust file using a crate (`krate`; `None`: an `extern crate`).
    #[error(
        "{} uses {}, and the server builds Rust with rustc alone (no cargo, no crates: the \
         standard library only); start from the Rust kit's src/bin/standalone-bot.rs, which \
         needs none",
        file.display(),
        crate_use(krate.as_deref())
    )]
    UsesCrate {
        file: PathBuf,
        krate: Option<String>,
    },
    #[error(
        "{} declares `mod {name};` but neither {} nor {} exists",
        file.display(),
        flat.display(),
        nested.display()
    )]
    MissingModule {
        file: PathBuf,
        name: String,
        flat: PathBuf,
        nested: PathBuf,
    },
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The zip could not be made (too many files): said as the bare reason, as it always was.
    #[error("{}", io_reason(.0))]
    Zip(io::Error),
    #[error("cannot write {}", out.display())]
    Write {
        out: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl HasExitKind for PackError {
    fn exit_kind(&self) -> ExitKind {
        match self {
            PackError::Read { .. } | PackError::Zip(_) | PackError::Write { .. } => {
                ExitKind::Failure
            }
            _ => ExitKind::BadInput,
        }
    }
}

fn names(languages: &[Language]) -> String {
    let names: Vec<&str> = languages.iter().map(|l| l.name()).collect();
    names.join(" and ")
}

fn crate_use(krate: Option<&str>) -> String {
    match krate {
        Some(name) => format!("the crate {name}"),
        None => "an extern crate".into(),
    }
}
