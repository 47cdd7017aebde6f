//! With the arena as a child subreaper, orphaned grandchildren come back to it and are reaped
//! too: afterwards `kill(-pgid, 0)` fails with ESRCH (not even a zombie is left in the group).
//! Its own test binary because the subreaper flag is process-wide.

use crate::process_common;

use process_common::*;
use rustix::io::Errno;
use rustix::process::{Pid, test_kill_process_group};
use sandbox::{BotProcess, SandboxLevel, probe_bwrap, set_child_subreaper};

fn group_gone(pgid: u32) -> bool {
    let pid = Pid::from_raw(pgid as i32).unwrap();
    test_kill_process_group(pid) == Err(Errno::SRCH)
}

#[tokio::test]
async fn subreaper_leaves_no_process_and_no_zombie_in_the_group() {
    set_child_subreaper().unwrap();
    let dir = tempfile::tempdir().unwrap();

    // Shutdown path.
    let mark = marker("subreaper");
    let spec1 = spec(&dir, "fork1", python("fork_holder.py", &[&mark]));
    let mut bot = BotProcess::spawn(&spec1).unwrap();
    let pgid = bot.pid();
    let grandchild: u32 = bot
        .recv_line(after(PATIENCE))
        .await
        .unwrap()
        .parse()
        .unwrap();
    let exit = bot.shutdown(PATIENCE).await;
    assert!(exit.leaked_pipe, "{exit:?}");
    assert!(
        eventually(PATIENCE, || group_gone(pgid)).await,
        "group {pgid} still has members; grandchild: {:?}",
        proc_info(grandchild)
    );

    // Drop path.
    let spec2 = spec(&dir, "fork2", python("fork_holder.py", &[&mark]));
    let mut bot = BotProcess::spawn(&spec2).unwrap();
    let pgid = bot.pid();
    bot.recv_line(after(PATIENCE)).await.unwrap();
    drop(bot);
    assert!(
        eventually(PATIENCE, || group_gone(pgid)).await,
        "group {pgid} still has members after drop"
    );
    assert!(live_with_marker(&mark).is_empty());

    // Under bwrap the sandbox (bwrap's namespace init, the bot, its child) is in the group
    // too, and all of it comes back to us and is reaped.
    if let Err(why) = probe_bwrap().await {
        skip("the bwrap part of this test", &why.to_string());
    } else {
        let mut spec3 = spec(&dir, "fork3", python("fork_holder.py", &[&mark]));
        spec3.sandbox = SandboxLevel::Bwrap;
        let mut bot = BotProcess::spawn(&spec3).unwrap();
        let pgid = bot.pid();
        bot.recv_line(after(PATIENCE)).await.unwrap();
        bot.shutdown(PATIENCE).await;
        assert!(
            eventually(PATIENCE, || group_gone(pgid)).await,
            "bwrap group {pgid} still has members"
        );
    }

    // No zombie children left at all.
    let me = std::process::id();
    let zombies = || {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter_map(proc_info)
            .filter(|p| p.ppid == me)
            .map(|p| std::fs::read_to_string(format!("/proc/{}/stat", p.pid)).unwrap_or_default())
            .collect::<Vec<_>>()
    };
    assert!(
        eventually(PATIENCE, || zombies().is_empty()).await,
        "children left: {:?}",
        zombies()
    );
}
