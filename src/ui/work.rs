//! Long work (a move on a big state, a Skat analysis) on a worker thread, so that the
//! screen keeps drawing, reading keys and following resizes while it runs; and the busy
//! line that shows it.

use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Work shorter than this shows no busy mark (so quick moves do not flicker).
pub const BUSY_AFTER: Duration = Duration::from_millis(150);

/// The name of worker threads (the panic hook leaves the terminal alone for them: a
/// panic there becomes a message on the screen).
pub const WORKER_THREAD: &str = "qchess-work";

use crate::game::{CancelFlag, Move};

/// Where a screen runs its long work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Exec {
    /// On the calling thread, to the end: for tests and programs that drive a screen
    /// directly and look at the result right after a key.
    #[default]
    Inline,
    /// On a worker thread; the terminal loop collects the result ([`Work::poll`]).
    Background,
}

/// What a look at running work found.
#[derive(Debug)]
pub enum Polled<T> {
    /// Still running.
    Running,
    /// Finished with this result.
    Done(T),
    /// The work panicked (a bug): what it said.
    Failed(String),
}

/// Work running on a worker thread.
pub struct Work<T> {
    rx: Receiver<Result<T, String>>,
    cancel: CancelFlag,
    started: Instant,
    what: String,
}

impl<T> fmt::Debug for Work<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Work")
            .field("what", &self.what)
            .field("elapsed", &self.started.elapsed())
            .finish()
    }
}

/// The text of a panic's payload.
fn panic_text(payload: Box<dyn Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

impl<T: Send + 'static> Work<T> {
    /// Starts `job` on a worker thread; `what` names it on the busy line. The job gets
    /// the cancel flag to pass on to whatever can stop early.
    pub fn start(
        what: impl Into<String>,
        job: impl FnOnce(CancelFlag) -> T + Send + 'static,
    ) -> Self {
        let (tx, rx) = mpsc::channel();
        let cancel = CancelFlag::default();
        let flag = Arc::clone(&cancel);
        let spawned = std::thread::Builder::new()
            .name(WORKER_THREAD.into())
            .spawn(move || {
                let r = catch_unwind(AssertUnwindSafe(|| job(flag))).map_err(panic_text);
                // The screen may have gone (quit, cancelled): nobody to tell.
                let _ = tx.send(r);
            });
        let what = what.into();
        if let Err(e) = spawned {
            // The closure (and the sender) are gone: poll reports the failure.
            let (tx, failed) = mpsc::channel();
            let _ = tx.send(Err(format!("cannot start a worker thread: {e}")));
            return Work {
                rx: failed,
                cancel,
                started: Instant::now(),
                what,
            };
        }
        Work {
            rx,
            cancel,
            started: Instant::now(),
            what,
        }
    }
}

impl<T> Work<T> {
    /// Whether the work has finished, and how.
    pub fn poll(&self) -> Polled<T> {
        match self.rx.try_recv() {
            Ok(Ok(v)) => Polled::Done(v),
            Ok(Err(e)) => Polled::Failed(e),
            Err(TryRecvError::Empty) => Polled::Running,
            Err(TryRecvError::Disconnected) => {
                Polled::Failed("the worker stopped without a result".into())
            }
        }
    }

    /// Waits for the end of the work (tests, and screens run inline).
    pub fn wait(self) -> Polled<T> {
        match self.rx.recv() {
            Ok(Ok(v)) => Polled::Done(v),
            Ok(Err(e)) => Polled::Failed(e),
            Err(_) => Polled::Failed("the worker stopped without a result".into()),
        }
    }

    /// What the work is, for the busy line.
    pub fn what(&self) -> &str {
        &self.what
    }

    /// How long it has run.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Whether it has run long enough to show the busy mark.
    pub fn shown(&self) -> bool {
        self.elapsed() >= BUSY_AFTER
    }

    /// Asks the work to stop (it sees its cancel flag set); its result still comes, as
    /// an error or finished anyway.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// What long work on a game is for: how the busy line names it, what Esc says, and (for
/// the screen) what to do with its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// A move as the player or the computer gave it.
    Move {
        /// The move.
        input: Move,
        /// Who gave it, and how.
        by: MoveBy,
    },
    /// Taking back the last move (`taken`, as played): the others are replayed.
    Undo {
        /// The move taken back.
        taken: String,
    },
    /// Showing ply `ply` of a replay (replayed from the start, or one move on).
    Ply {
        /// The ply to show.
        ply: usize,
    },
    /// Judging the puzzle move just played (`played`) and finding the defence's reply.
    Judge {
        /// The move as played.
        played: String,
        /// What the move did, in words (told with the verdict).
        said: String,
    },
}

/// Who gave a move, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveBy {
    /// Typed on the `:` line.
    Typed,
    /// Picked on the board (or in a list of moves).
    Picked,
    /// The player's move, played after `y` to the question about its king (see
    /// [`super::app::king_risk`]).
    Confirmed,
    /// The computer's move; `book` when its opening book gave it.
    Computer {
        /// From the opening book (no search).
        book: bool,
    },
}

impl Job {
    /// What runs, for the busy line: "playing e2e4", "taking back e2e4", "going to ply 7".
    pub fn what(&self) -> String {
        match self {
            Job::Move { input, .. } => format!("playing {input}"),
            Job::Undo { taken } => format!("taking back {taken}"),
            Job::Ply { ply } => format!("going to ply {ply}"),
            Job::Judge { played, .. } => format!("judging {played}"),
        }
    }

    /// What Esc says once the job is cancelled.
    pub fn cancelled(&self) -> String {
        match self {
            Job::Move { input, .. } => format!("cancelled {input}: the game is unchanged"),
            Job::Undo { taken } => {
                format!("cancelled taking back {taken}: the game is unchanged")
            }
            Job::Ply { ply } => format!("cancelled going to ply {ply}"),
            Job::Judge { played, .. } => {
                format!("stopped judging {played}: the try ends unjudged")
            }
        }
    }

    /// Why the job failed, in words: `why` with what the job was.
    pub fn failed(&self, why: &str) -> String {
        match self {
            Job::Move { input, .. } => format!("{input}: {why}"),
            Job::Undo { taken } => format!("cannot take back {taken}: {why}"),
            Job::Ply { ply } => format!("cannot show ply {ply}: {why}"),
            Job::Judge { played, .. } => format!("{played}: {why}"),
        }
    }
}

/// A game screen's [`Job`] running on a worker thread; its work gives what the job
/// leads to, or why not.
pub struct Pending<T> {
    work: Work<Result<T, String>>,
    /// What the work is for.
    pub job: Job,
}

impl<T> fmt::Debug for Pending<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pending")
            .field("work", &self.work)
            .field("job", &self.job)
            .finish()
    }
}

impl<T: Send + 'static> Pending<T> {
    /// Starts `job`'s work `f` (given the flag that stops it) on a worker thread.
    pub fn start(
        job: Job,
        f: impl FnOnce(CancelFlag) -> Result<T, String> + Send + 'static,
    ) -> Self {
        Pending {
            work: Work::start(job.what(), f),
            job,
        }
    }
}

impl<T> Pending<T> {
    /// The work once it has taken long enough to show: what it is and how long it has
    /// run.
    pub fn busy(&self) -> Option<(&str, Duration)> {
        self.work
            .shown()
            .then(|| (self.work.what(), self.work.elapsed()))
    }

    /// Whether the busy line should show it (see [`Work::shown`]).
    pub fn shown(&self) -> bool {
        self.work.shown()
    }

    /// The result once the work has ended (a panic in it said as an error, the game
    /// unchanged); `None` while it runs.
    pub fn result(&self) -> Option<Result<T, String>> {
        match self.work.poll() {
            Polled::Running => None,
            Polled::Done(r) => Some(r),
            Polled::Failed(why) => Some(Err(format!(
                "it failed inside qchess ({why}); the game is unchanged"
            ))),
        }
    }
}

impl<T> Drop for Work<T> {
    /// Dropping the work (cancelled, or the screen quit) asks it to stop; whatever it
    /// still finishes is thrown away.
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The keys that act while work runs, as the busy line of a game says them.
pub const BUSY_KEYS: &str = "Esc cancels, q quits";

/// The spinner's frame after `elapsed` (a new one every 100 ms).
pub fn spinner(elapsed: Duration, ascii: bool) -> char {
    const SPIN: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
    const SPIN_ASCII: [char; 4] = ['|', '/', '-', '\\'];
    let tick = (elapsed.as_millis() / 100) as usize;
    if ascii {
        SPIN_ASCII[tick % SPIN_ASCII.len()]
    } else {
        SPIN[tick % SPIN.len()]
    }
}

/// The busy line: a spinner, what runs, for how long, and the `keys` that act now.
pub fn busy_line(what: &str, elapsed: Duration, keys: &str, ascii: bool) -> String {
    format!(
        "{} {what}: {:.1} s ({keys})",
        spinner(elapsed, ascii),
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait_done<T>(w: &Work<T>) -> Polled<T> {
        let start = Instant::now();
        loop {
            match w.poll() {
                Polled::Running if start.elapsed() < Duration::from_secs(10) => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                p => return p,
            }
        }
    }

    #[test]
    fn work_runs_on_another_thread_and_can_be_cancelled() {
        let w = Work::start("sum", |_| (1..=10).sum::<u32>());
        assert!(matches!(wait_done(&w), Polled::Done(55)));

        // The job sees the cancel flag flip; the screen never waits for it.
        let (tx, rx) = mpsc::channel();
        let w = Work::start("spin", move |flag: CancelFlag| {
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = tx.send("stopped");
        });
        assert!(matches!(w.poll(), Polled::Running));
        drop(w);
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok("stopped"));
    }

    #[test]
    fn a_panic_in_the_work_is_a_failure() {
        let w = Work::<()>::start("boom", |_| panic!("boom"));
        match wait_done(&w) {
            Polled::Failed(m) => assert_eq!(m, "boom"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn busy_line_shows_time_and_keys() {
        let l = busy_line(
            "playing b1^a3c3",
            Duration::from_millis(2049),
            BUSY_KEYS,
            true,
        );
        assert_eq!(l, "| playing b1^a3c3: 2.0 s (Esc cancels, q quits)");
        let l = busy_line("x", Duration::from_millis(100), BUSY_KEYS, false);
        assert!(l.starts_with('⠙'), "{l}");
    }
}
