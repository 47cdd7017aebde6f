//! The contest's logic apart from HTTP and SQL: bot versions, uploads and their unpacking,
//! their builds and checks, the match scheduler, the workers that play matches, ratings and when they are
//! provisional, the final round robin.

pub mod artifact;
pub mod build;
pub mod cache;
pub mod final_round;
pub mod log_paths;
pub mod pool;
pub mod provisional;
pub mod rating;
pub mod schedule;
pub mod submissions;
pub mod toolchains;
pub mod unpack;
pub mod versions;
pub mod worker;
pub mod worker_thread;
