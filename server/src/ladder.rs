//! The contest's logic apart from HTTP and SQL: bot versions, uploads and their unpacking
//! (later: the match scheduler and ratings).

pub mod submissions;
pub mod unpack;
pub mod versions;
