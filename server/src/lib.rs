//! The contest ladder server (`arena-server`, issue 15): an application on top of the arena
//! library. Layers, each in its own module:
//!
//! - [`config`]: the contest file.
//! - [`storage`]: every query and the migrations, for SQLite and PostgreSQL alike.
//! - [`accounts`]: passwords, sessions, API tokens, rosters, rate limits.
//! - [`ladder`]: submissions and their life, scheduling, match workers, ratings.
//! - [`web`]: routes, pages, cookies and CSRF: HTTP only, no SQL.
//! - [`listen`]: the site's connections: timeouts and caps against slow or idle clients.
//! - [`serve`] starts the server; [`remote`] runs `arena-worker`, match workers on other
//!   machines that share only the database; [`process`] is what both do before any bot runs.

pub mod accounts;
pub mod assignment;
pub mod clock;
pub mod config;
pub mod ladder;
pub mod listen;
pub mod process;
pub mod remote;
pub mod serve;
pub mod storage;
pub mod web;
