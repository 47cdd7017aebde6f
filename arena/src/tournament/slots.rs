//! Job slots: `--jobs N` threads, each playing matches one after another on its own
//! current-thread runtime, taking them from one queue in schedule order.
//!
//! A slot takes a whole duplicate block at a time and plays its matches one after the other:
//! the two halves of a block (the same deals, seats swapped) never run at once. The copy of a
//! bot in one half holds exactly the cards its opponent holds in the other; run together,
//! the two copies could tell each other through anything the machine shares at that moment
//! (file locks, load, free memory: ARCHITECTURE.md, "Collusion and covert channels").
//! Blocks still run in parallel: their deals are unrelated.
//!
//! Why threads and not tasks on the multi-thread runtime: a match is one referee task and
//! bots that answer in microseconds. On one thread with its own runtime, a bot's answer wakes
//! exactly that thread, with no work stealing or cross-thread notification; on this project's
//! 2-vCPU machine that played light-bot tournaments ~20 % faster at `--jobs 2`.
//!
//! `--affinity` also pins each slot to one CPU, and the bots it starts inherit the pin. Left
//! to the scheduler, one match's processes hop between CPUs, and on a virtual machine every
//! hop wakes an idle vCPU through the hypervisor (~25 us); pinned, every exchange is a plain
//! context switch (BENCHMARKS.md, section 3). The cost: a bot can no longer use a second CPU
//! (a multi-threaded bot shares its slot's CPU with its referee), so this is an option, as in
//! fastchess (`-use-affinity`).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::schedule::ScheduledMatch;
use crate::referee::{MatchConfig, MatchError, MatchResult, run_match};
use crate::watch::LiveHub;

/// A match to play: what it is, how, and its working directory (removed afterwards).
pub type Job = (ScheduledMatch, MatchConfig, PathBuf);

/// A played (or cancelled) match.
pub type Played = (ScheduledMatch, Result<MatchResult, MatchError>);

/// The CPUs this process may run on, in order (all of them if the mask cannot be read).
pub fn allowed_cpus() -> Vec<usize> {
    match sched_getaffinity(None) {
        Ok(set) => (0..CpuSet::MAX_CPU)
            .filter(|&cpu| set.is_set(cpu))
            .collect(),
        Err(_) => (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect(),
    }
}

/// How the slots play.
#[derive(Clone, Copy, Debug, Default)]
pub struct SlotOptions {
    /// Pin each slot (and the bots it starts) to one CPU (`--affinity`).
    pub pin: bool,
    /// Empty the machine's page cache between the matches of a block (`page_cache = "drop"`).
    pub drop_page_cache: bool,
}

/// Starts `slots` threads (each pinned to one CPU if `options.pin`) that take `jobs` a block
/// at a time, in order, and send each result as it finishes. The channel closes when every
/// slot has stopped (queue empty, or cancelled and drained: a cancelled job is sent back as
/// `MatchError::Cancelled`). Join the handles after that to see whether a slot panicked.
pub fn start_slots(
    slots: usize,
    jobs: Vec<Job>,
    options: SlotOptions,
    watch: Option<Arc<LiveHub>>,
    cancel: &CancellationToken,
) -> std::io::Result<(
    mpsc::UnboundedReceiver<Played>,
    Vec<std::thread::JoinHandle<()>>,
)> {
    let cpus = allowed_cpus();
    let queue = Arc::new(Mutex::new(by_block(jobs, |job: &Job| job.0.block)));
    let (sender, receiver) = mpsc::unbounded_channel();
    let mut handles = Vec::new();
    for slot in 0..slots.max(1) {
        let cpu = options.pin.then(|| cpus[slot % cpus.len()]);
        let queue = queue.clone();
        let sender = sender.clone();
        let cancel = cancel.clone();
        let watch = watch.clone();
        let handle = std::thread::Builder::new()
            .name(format!("arena-slot-{slot}"))
            .spawn(move || {
                let slot = Slot {
                    sender: &sender,
                    watch: watch.as_deref(),
                    cancel: &cancel,
                    drop_page_cache: options.drop_page_cache,
                };
                run_slot(cpu, &queue, &slot)
            })?;
        handles.push(handle);
    }
    Ok((receiver, handles))
}

/// The jobs cut into runs of consecutive matches of one block (a schedule lists a block's
/// matches together), in order.
fn by_block<T>(jobs: Vec<T>, block_of: impl Fn(&T) -> u64) -> VecDeque<Vec<T>> {
    let mut blocks: VecDeque<Vec<T>> = VecDeque::new();
    for job in jobs {
        match blocks.back_mut() {
            Some(last) if block_of(&last[0]) == block_of(&job) => last.push(job),
            _ => blocks.push_back(vec![job]),
        }
    }
    blocks
}

/// What a slot's thread works with.
struct Slot<'a> {
    sender: &'a mpsc::UnboundedSender<Played>,
    watch: Option<&'a LiveHub>,
    cancel: &'a CancellationToken,
    drop_page_cache: bool,
}

fn run_slot(cpu: Option<usize>, queue: &Mutex<VecDeque<Vec<Job>>>, slot: &Slot<'_>) {
    let cancel = slot.cancel;
    if let Some(cpu) = cpu {
        let mut set = CpuSet::new();
        set.set(cpu);
        // Children inherit the affinity of the thread that forks them: the bots follow the pin.
        if let Err(e) = sched_setaffinity(None, &set) {
            tracing::warn!("cannot pin a job slot to CPU {cpu}: {e}");
        }
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!("cannot start a job slot's runtime: {e}");
            cancel.cancel();
            return;
        }
    };
    runtime.block_on(async {
        loop {
            let block = queue
                .lock()
                .expect("no slot panics holding the queue")
                .pop_front();
            let Some(block) = block else {
                break;
            };
            if !play_block(block, slot).await {
                break;
            }
        }
    });
}

/// Plays a block's matches one after the other and sends each result; false when nobody
/// listens any more.
async fn play_block(block: Vec<Job>, slot: &Slot<'_>) -> bool {
    let (sender, watch, cancel) = (slot.sender, slot.watch, slot.cancel);
    let last = block.len().saturating_sub(1);
    for (n, (m, mut config, work)) in block.into_iter().enumerate() {
        let result = if cancel.is_cancelled() {
            Err(MatchError::Cancelled)
        } else {
            // A watched tournament shows each match from the moment it starts.
            config.live = watch
                .zip(config.replay.as_deref())
                .map(|(hub, replay)| hub.open(live_label(&m, &config), replay));
            let result = run_match(&config, cancel).await;
            if let (Some(hub), Some(feed)) = (watch, &config.live) {
                hub.close(feed);
            }
            result
        };
        let _ = tokio::fs::remove_dir_all(&work).await;
        if sender.send((m, result)).is_err() {
            return false;
        }
        // The next match deals the same cards: nothing this one's bots cached may be there
        // for it to find (`page_cache.rs`). Its bots are all gone by now.
        if slot.drop_page_cache && n < last && !cancel.is_cancelled() {
            let dropped = tokio::task::spawn_blocking(super::page_cache::drop_now).await;
            if let Err(e) = dropped.unwrap_or_else(|e| Err(std::io::Error::other(e))) {
                tracing::error!("cannot empty the page cache between two halves: {e}");
                cancel.cancel();
            }
        }
    }
    true
}

/// How a match is listed in the live view: its number and its seats.
fn live_label(m: &ScheduledMatch, config: &MatchConfig) -> String {
    let names: Vec<&str> = config.seats.iter().map(|s| s.spec.name.as_str()).collect();
    format!("match {}: {}", m.index, names.join(" vs "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocks_matches_go_to_one_slot_together_and_in_order() {
        // (block, match index), as a resumed schedule may list them: some matches played.
        let jobs = vec![(0, 0), (0, 1), (1, 3), (2, 4), (2, 5), (2, 6), (3, 7)];
        let blocks = by_block(jobs, |&(block, _)| block);
        let indexes: Vec<Vec<u64>> = blocks
            .iter()
            .map(|b| b.iter().map(|&(_, i)| i).collect())
            .collect();
        assert_eq!(indexes, [vec![0, 1], vec![3], vec![4, 5, 6], vec![7]]);
        assert!(by_block(Vec::<(u64, u64)>::new(), |&(b, _)| b).is_empty());
    }
}
