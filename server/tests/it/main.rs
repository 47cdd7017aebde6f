//! The contest server's integration tests, one test binary: a module per concern (the
//! binaries, builds, the ladder, the final, the web's routes and pages, storage on both
//! databases, slow and hostile clients, a database outage, ...), sharing `common` (starting
//! servers and workers, ladders, requests). One binary rather than one per file, each of which
//! linked the server and its database drivers again.

#[path = "../common/mod.rs"]
#[macro_use] // on_both!: a test on SQLite and, when configured, on PostgreSQL
mod common;

mod assignment;
mod assignment_deals;
mod assignment_failures;
mod binary;
mod browser;
mod build;
mod client_mistakes;
mod db_outage;
mod deployment;
mod display_names;
mod final_round;
mod ladder;
mod ladder_collusion;
mod ladder_queries;
mod lockout;
mod pack_upload;
mod replay_access;
mod replay_page;
mod slow_clients;
mod start_command;
mod storage;
mod web;
mod worker_thread;
