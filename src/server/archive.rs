//! The finished games a server keeps (`server/rooms/finished/`), bounded in count and
//! in size: past either bound the oldest games go first, those between players without
//! a key (guests' casual games, `NAME-STAMP.guests.toml`) before any other.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The end of the file name of a game no player with a key took part in.
pub const GUESTS: &str = ".guests.toml";

/// One kept game: whether guests played it, when it was written, its size, its file.
type Kept = (bool, SystemTime, u64, PathBuf);

/// Removes the games of `dir` past `max_games` or `max_bytes` in all (guests' first,
/// oldest first); how many were removed.
pub fn prune(dir: &Path, max_games: usize, max_bytes: u64) -> usize {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut kept: Vec<Kept> = listing
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let meta = e.metadata().ok().filter(|m| m.is_file())?;
            name.ends_with(".toml").then(|| {
                let when = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                (!name.ends_with(GUESTS), when, meta.len(), e.path())
            })
        })
        .collect();
    let (mut count, mut bytes) = (kept.len(), kept.iter().map(|k| k.2).sum::<u64>());
    if count <= max_games && bytes <= max_bytes {
        return 0;
    }
    // Guests' games (false) first, then by age.
    kept.sort();
    let mut removed = 0;
    for (_, _, size, path) in kept {
        if count <= max_games && bytes <= max_bytes {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            removed += 1;
            count -= 1;
            bytes = bytes.saturating_sub(size);
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_guests_games_go_first() {
        let dir = std::env::temp_dir().join(format!("qchess-archive-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str| {
            std::fs::write(dir.join(name), "x".repeat(100)).unwrap();
            // Distinct times, in the order written.
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        write("a-1.toml");
        write("g-1.guests.toml");
        write("b-2.toml");
        write("g-2.guests.toml");
        let left = || {
            let mut v: Vec<String> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        assert_eq!(prune(&dir, 4, 1000), 0, "within both bounds");
        assert_eq!(prune(&dir, 3, 1000), 1);
        assert_eq!(left(), ["a-1.toml", "b-2.toml", "g-2.guests.toml"]);
        // By size: 250 bytes keep two games; the guests' goes before the older keyed.
        assert_eq!(prune(&dir, 10, 250), 1);
        assert_eq!(left(), ["a-1.toml", "b-2.toml"]);
        assert_eq!(prune(&dir, 1, 1000), 1);
        assert_eq!(left(), ["b-2.toml"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
