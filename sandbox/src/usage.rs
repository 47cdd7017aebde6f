//! The arena's own memory use, to show that hostile bots do not make it grow.

/// The arena process's peak resident set size in KiB (`VmHWM` in `/proc/self/status`, the
/// value `getrusage(RUSAGE_SELF)` reports as `ru_maxrss` on Linux). `None` where `/proc` is
/// not available.
pub fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_hwm(&status)
}

fn parse_vm_hwm(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line["VmHWM:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_high_water_mark() {
        let status = "Name:\tarena\nVmPeak:\t  123 kB\nVmHWM:\t   45678 kB\nVmRSS:\t 1 kB\n";
        assert_eq!(parse_vm_hwm(status), Some(45678));
        assert_eq!(parse_vm_hwm("Name: x\n"), None);
        let own = peak_rss_kb().expect("Linux has /proc/self/status");
        assert!(own > 0);
    }
}
