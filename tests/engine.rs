//! The engine, one test binary: its search, game review, `qchess uqci` and external UQCI engines as
//! players.

mod support;

#[path = "engine/review.rs"]
mod review;
#[path = "engine/search.rs"]
mod search;
#[path = "engine/uqci.rs"]
mod uqci;
#[path = "engine/uqci_client.rs"]
mod uqci_client;
