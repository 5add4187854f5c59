//! The server's pooled `jq` worker processes, found through `/proc` (Linux): each runs the server binary with
//! `--jq-worker <address-space bytes>`, so a test that gives its server a distinctive `MCP_JQ_MAX_MEMORY_MIB` finds
//! exactly its own workers even when other tests run beside it.

use mcp_projection::IsolatedConfig;

/// Pids of the live (not zombie) workers of a server started with `MCP_JQ_MAX_MEMORY_MIB=memory_mib`; with `busy`,
/// only those running now (state `R`) that have used more than 30 clock ticks of CPU (a runaway program).
pub fn workers(memory_mib: u64, busy: bool) -> Vec<u32> {
    let config = IsolatedConfig::default().with_max_memory_bytes(memory_mib * 1024 * 1024);
    let needle = format!("--jq-worker\0{}\0", config.address_space_bytes());
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let pid: u32 = path.file_name()?.to_str()?.parse().ok()?;
            let cmdline = std::fs::read(path.join("cmdline")).ok()?;
            if !String::from_utf8_lossy(&cmdline).contains(&needle) {
                return None;
            }
            let stat = std::fs::read_to_string(path.join("stat")).ok()?;
            // Fields after the `(comm)`: state is the 1st, utime and stime (clock ticks) the 12th and 13th.
            let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
            let state = *fields.first()?;
            let counted = if busy {
                let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
                state == "R" && ticks > 30
            } else {
                state != "Z"
            };
            counted.then_some(pid)
        })
        .collect()
}
