//! The contest's logic apart from HTTP and SQL: bot versions, uploads and their unpacking,
//! their builds and checks (later: the match scheduler and ratings).

pub mod build;
pub mod submissions;
pub mod toolchains;
pub mod unpack;
pub mod versions;
