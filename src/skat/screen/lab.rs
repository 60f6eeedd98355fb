//! The lab's state: the endgames it can show (each analysed once, when first shown),
//! the selected card and distribution (or toy phase and branch), the focused pane, the
//! scroll positions, and what a key does to them.

use super::keys::{translate, Action};
use crate::game::CancelFlag;
use crate::skat::analysis::{analyze_watched, Analysis, AnalysisError, AnalyzeOptions};
use crate::skat::budget::{bytes_words, duration_words, Progress, Watch};
use crate::skat::endgame::{Endgame, PRESETS};
use crate::skat::solve::Solver;
use crate::skat::toy::{run_toy, ToyReport};
use crate::skat::view::{line_solver, SkatView, TricksPane};
use crate::style::color::Paint;
use crate::ui::message::{Message, Tone};
use crate::ui::terminal::Screen;
use crate::ui::work::{Exec, Polled, Work};
use crossterm::event::{Event, KeyCode, KeyEvent};
use ratatui::Frame;
use std::cell::Cell;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Something the lab can show.
#[derive(Clone, Debug)]
pub enum Entry {
    /// An endgame, analysed when first shown.
    Endgame {
        /// Its name: the preset's, or the file's path.
        name: String,
        /// The endgame.
        endgame: Endgame,
    },
    /// The paper's four-card example.
    Toy,
}

impl Entry {
    /// The name shown in the status line.
    pub fn name(&self) -> &str {
        match self {
            Entry::Endgame { name, .. } => name,
            Entry::Toy => "toy",
        }
    }
}

/// The built-in endgames (the presets, which the endgame tests check to parse), then
/// the toy.
pub fn builtin_entries() -> Vec<Entry> {
    let mut v: Vec<Entry> = PRESETS
        .iter()
        .filter_map(|(name, _, text)| {
            Endgame::from_toml(text).ok().map(|endgame| Entry::Endgame {
                name: name.to_string(),
                endgame,
            })
        })
        .collect();
    v.push(Entry::Toy);
    v
}

/// The four panes, in focus order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    /// Per-card probabilities and the distributions (toy: the phases and branches).
    Probabilities,
    /// Table and hands.
    Table,
    /// The tricks of one line of play (toy: the outcomes).
    Tricks,
    /// The circuit.
    Circuit,
}

const PANES: [Pane; 4] = [
    Pane::Probabilities,
    Pane::Table,
    Pane::Tricks,
    Pane::Circuit,
];

impl Pane {
    fn index(self) -> usize {
        PANES.iter().position(|&p| p == self).unwrap_or(0)
    }
}

/// An analysed endgame and what is selected in it.
#[derive(Clone, Debug)]
pub struct EndgameState {
    /// The analysis.
    pub analysis: Analysis,
    /// The panes' data; its tricks are those of the selected card and distribution.
    pub view: SkatView,
    solver: Solver,
    /// Index of the selected card in my hand.
    pub card: usize,
    /// Index of the selected distribution.
    pub distribution: usize,
}

/// The toy run and what is selected in it.
#[derive(Clone, Debug)]
pub struct ToyState {
    /// The run.
    pub report: ToyReport,
    /// Index of the selected phase.
    pub phase: usize,
    /// Index of the selected branch of that phase.
    pub branch: usize,
}

/// What is shown for an entry.
#[derive(Clone, Debug)]
pub enum Shown {
    /// An endgame.
    Endgame(Box<EndgameState>),
    /// The toy.
    Toy(ToyState),
}

/// The last progress report of an analysis, shared with the thread running it.
type Reported = Arc<Mutex<Option<Progress>>>;

/// An entry being analysed on a worker thread.
#[derive(Debug)]
struct Pending {
    work: Work<Result<Shown, AnalysisError>>,
    /// Which entry.
    index: usize,
    /// How far the analysis is, as it last said.
    progress: Reported,
    /// Esc asked it to stop; the lab waits for it to (a fraction of a second), so that
    /// two analyses never run at once.
    stopping: bool,
}

/// An analysis running on a worker thread, as the lab shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Analysing<'a> {
    /// The entry analysed.
    pub name: &'a str,
    /// How long it has run.
    pub elapsed: Duration,
    /// How far it is, once it has said.
    pub progress: Option<Progress>,
    /// Esc asked it to stop.
    pub stopping: bool,
}

/// The Skat lab screen.
#[derive(Debug)]
pub struct SkatLab {
    /// Colours.
    pub paint: Paint,
    /// Suit letters instead of symbols.
    pub ascii: bool,
    options: AnalyzeOptions,
    entries: Vec<Entry>,
    shown: Vec<Option<Shown>>,
    current: usize,
    focus: Pane,
    /// Scroll offsets of the table, tricks and circuit panes (by [`Pane`] index).
    scroll: [usize; 4],
    /// The largest useful offsets, as found by the last draw.
    max_scroll: [Cell<usize>; 4],
    help: bool,
    quit: bool,
    message: Message,
    /// Where analyses run.
    exec: Exec,
    /// The entry being analysed on a worker thread.
    pending: Option<Pending>,
}

/// Analyses `entry` (an endgame's analysis reports to `watch` and stops when its flag is
/// set; the toy takes milliseconds).
fn load(entry: &Entry, options: &AnalyzeOptions, watch: &Watch) -> Result<Shown, AnalysisError> {
    Ok(match entry {
        Entry::Endgame { endgame, .. } => {
            let analysis = analyze_watched(endgame, options, watch)?;
            let card = analysis.recommendation;
            let view = SkatView::new(&analysis, 0);
            let solver = line_solver(endgame);
            Shown::Endgame(Box::new(EndgameState {
                analysis,
                view,
                solver,
                card,
                distribution: 0,
            }))
        }
        Entry::Toy => Shown::Toy(ToyState {
            report: run_toy(options.backend)?,
            phase: 0,
            branch: 0,
        }),
    })
}

fn step(i: usize, by: i32, len: usize) -> usize {
    let last = len.saturating_sub(1) as i64;
    (i as i64 + by as i64).clamp(0, last.max(0)) as usize
}

impl SkatLab {
    /// A lab over `entries` showing `start` first (analysed now; the others when first
    /// shown), analysing with `options`.
    pub fn new(
        entries: Vec<Entry>,
        start: usize,
        options: AnalyzeOptions,
        paint: Paint,
        ascii: bool,
    ) -> Result<SkatLab, super::LabError> {
        let mut lab = SkatLab::empty(entries, start, options, paint, ascii);
        if let Some(e) = lab.entries.get(lab.current) {
            let s = load(e, &lab.options, &Watch::default()).map_err(|source| {
                super::LabError::Analysis {
                    name: e.name().to_string(),
                    source,
                }
            })?;
            lab.shown[lab.current] = Some(s);
        }
        lab.describe();
        Ok(lab)
    }

    /// A lab over `entries` that analyses `start` (and every other entry when first
    /// shown) on a worker thread, drawing meanwhile: what the terminal runs.
    pub fn in_background(
        entries: Vec<Entry>,
        start: usize,
        options: AnalyzeOptions,
        paint: Paint,
        ascii: bool,
    ) -> SkatLab {
        let mut lab = SkatLab::empty(entries, start, options, paint, ascii);
        lab.exec = Exec::Background;
        lab.show(lab.current);
        lab
    }

    /// The lab with nothing analysed yet, set to show `start`.
    fn empty(
        entries: Vec<Entry>,
        start: usize,
        options: AnalyzeOptions,
        paint: Paint,
        ascii: bool,
    ) -> SkatLab {
        let start = start.min(entries.len().saturating_sub(1));
        let shown: Vec<Option<Shown>> = entries.iter().map(|_| None).collect();
        SkatLab {
            paint: paint.with_ascii(ascii),
            ascii,
            options,
            entries,
            shown,
            current: start,
            focus: Pane::Probabilities,
            scroll: [0; 4],
            max_scroll: Default::default(),
            help: false,
            quit: false,
            message: Message {
                text: String::new(),
                tone: Tone::Plain,
            },
            exec: Exec::Inline,
            pending: None,
        }
    }

    /// The analysis running on a worker thread, once it has taken long enough to show.
    pub fn analysing(&self) -> Option<Analysing<'_>> {
        let p = self.pending.as_ref().filter(|p| p.work.shown())?;
        let progress = *p.progress.lock().unwrap_or_else(PoisonError::into_inner);
        Some(Analysing {
            name: self.entries[p.index].name(),
            elapsed: p.work.elapsed(),
            progress,
            stopping: p.stopping,
        })
    }

    /// Waits for the analysis running on a worker thread and takes it in.
    pub fn finish_work(&mut self) {
        while self.pending.is_some() {
            if !Screen::tick(self) {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }

    /// Takes in an analysis that finished on its worker thread: shows the entry, or
    /// says why it could not be analysed. One that finished although Esc asked it to stop
    /// is kept for later, and the lab stays where it was.
    fn take_in(&mut self, index: usize, result: Result<Shown, AnalysisError>, stopped: bool) {
        let name = self.entries[index].name().to_string();
        match result {
            Ok(s) if stopped => {
                self.shown[index] = Some(s);
                self.say(
                    Tone::Plain,
                    format!(
                        "{name} was done before it could stop: {} shows it",
                        index + 1
                    ),
                );
            }
            Ok(s) => {
                self.shown[index] = Some(s);
                self.current = index;
                self.scroll = [0; 4];
                self.describe();
            }
            Err(AnalysisError::Cancelled) => {
                self.say(Tone::Plain, format!("stopped analysing {name}"))
            }
            Err(e) => self.say(Tone::Error, refusal(&name, &e)),
        }
    }

    /// The entries, in key order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Index of the entry shown.
    pub fn current(&self) -> usize {
        self.current
    }

    /// What the shown entry displays.
    pub fn shown(&self) -> Option<&Shown> {
        self.shown.get(self.current).and_then(|s| s.as_ref())
    }

    /// The pane with the focus.
    pub fn focus(&self) -> Pane {
        self.focus
    }

    /// The scroll offset of a pane, as asked for (the pane clamps it).
    pub fn scroll(&self, pane: Pane) -> usize {
        self.scroll[pane.index()]
    }

    /// Records the largest useful scroll offset of a pane, found while drawing it.
    pub fn set_max_scroll(&self, pane: Pane, max: usize) {
        self.max_scroll[pane.index()].set(max);
    }

    /// The analysis options in use.
    pub fn options(&self) -> &AnalyzeOptions {
        &self.options
    }

    /// The message line.
    pub fn message(&self) -> &Message {
        &self.message
    }

    /// Whether the help is shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// Whether the player asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Reacts to one key press. While an analysis runs, Esc stops it (the lab shows
    /// "stopping" until it has, within a fraction of a second) and `q` and Ctrl-C quit at
    /// once; other keys wait.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if let Some(p) = &mut self.pending {
            match translate(key) {
                Some(Action::Quit) => self.quit = true,
                Some(Action::Cancel) => {
                    p.work.cancel();
                    p.stopping = true;
                }
                _ => {}
            }
            return;
        }
        match translate(key) {
            Some(a) => self.update(a),
            None if self.help => self.help = false,
            None => {
                if let KeyCode::Char(c) = key.code {
                    self.say(
                        Tone::Error,
                        format!("the key '{c}' does nothing here: press ? for the keys"),
                    );
                }
            }
        }
    }

    /// Applies one action.
    pub fn update(&mut self, action: Action) {
        if self.help {
            self.help = false;
            self.quit = action == Action::Quit;
            return;
        }
        match action {
            Action::Card(by) => self.move_card(by),
            Action::Row(by) => self.move_row(by),
            Action::First => self.move_row(i32::MIN / 2),
            Action::Last => self.move_row(i32::MAX / 2),
            Action::FocusNext => self.focus = PANES[(self.focus.index() + 1) % 4],
            Action::FocusPrev => self.focus = PANES[(self.focus.index() + 3) % 4],
            Action::NextEntry => self.show((self.current + 1) % self.entries.len().max(1)),
            Action::PrevEntry => {
                let n = self.entries.len().max(1);
                self.show((self.current + n - 1) % n)
            }
            Action::Entry(i) if i < self.entries.len() => self.show(i),
            Action::Entry(i) => self.say(
                Tone::Error,
                format!(
                    "there is no endgame {} (1 to {})",
                    i + 1,
                    self.entries.len()
                ),
            ),
            Action::Help => self.help = true,
            Action::Cancel => {}
            Action::Quit => self.quit = true,
        }
    }

    fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            tone,
        };
    }

    /// Puts a summary of the shown entry on the message line.
    fn describe(&mut self) {
        let text = match self.shown() {
            Some(Shown::Endgame(s)) => {
                let best = s.analysis.recommended();
                format!(
                    "{}: lead {} — favourable in {} of {} distributions",
                    self.entries[self.current].name(),
                    super::card_label(best.card, self.ascii),
                    best.wins,
                    s.analysis.deals.len()
                )
            }
            Some(Shown::Toy(t)) => {
                let counts: Vec<String> = t
                    .report
                    .phases
                    .iter()
                    .map(|p| p.branches.to_string())
                    .collect();
                format!(
                    "toy: the paper's four-card example; branches after each phase {}",
                    counts.join(", ")
                )
            }
            None => String::new(),
        };
        self.say(Tone::Info, text);
    }

    fn show(&mut self, i: usize) {
        if i >= self.entries.len() {
            return;
        }
        if self.shown[i].is_some() {
            self.current = i;
            self.scroll = [0; 4];
            return self.describe();
        }
        let entry = self.entries[i].clone();
        match self.exec {
            Exec::Inline => {
                let result = load(&entry, &self.options, &Watch::default());
                self.take_in(i, result, false);
            }
            Exec::Background => {
                let options = self.options;
                let what = format!("analysing {}", entry.name());
                let progress = Reported::default();
                let reported = Arc::clone(&progress);
                let work = Work::start(what, move |cancel: CancelFlag| {
                    let report = |p: &Progress| {
                        *reported.lock().unwrap_or_else(PoisonError::into_inner) = Some(*p);
                    };
                    let watch = Watch {
                        progress: Some(&report),
                        cancel: Some(cancel),
                    };
                    load(&entry, &options, &watch)
                });
                self.pending = Some(Pending {
                    work,
                    index: i,
                    progress,
                    stopping: false,
                });
            }
        }
    }

    fn move_card(&mut self, by: i32) {
        match self.shown.get_mut(self.current).and_then(|s| s.as_mut()) {
            Some(Shown::Endgame(s)) => {
                s.card = step(s.card, by, s.analysis.cards.len());
                s.replay();
            }
            Some(Shown::Toy(t)) => {
                t.phase = step(t.phase, by, t.report.phases.len());
                t.branch = 0;
            }
            None => {}
        }
    }

    fn move_row(&mut self, by: i32) {
        let pane = self.focus;
        if pane != Pane::Probabilities {
            let i = pane.index();
            let max = self.max_scroll[i].get();
            self.scroll[i] = step(self.scroll[i].min(max), by, max + 1);
            return;
        }
        match self.shown.get_mut(self.current).and_then(|s| s.as_mut()) {
            Some(Shown::Endgame(s)) => {
                s.distribution = step(s.distribution, by, s.analysis.deals.len());
                s.replay();
            }
            Some(Shown::Toy(t)) => {
                let n = t.report.phases.get(t.phase).map_or(0, |p| p.states.len());
                t.branch = step(t.branch, by, n);
            }
            None => {}
        }
    }
}

impl EndgameState {
    /// Plays the line of the selected card and distribution into the tricks pane.
    fn replay(&mut self) {
        self.view.tricks = TricksPane::new(
            &self.analysis,
            &mut self.solver,
            self.card,
            self.distribution,
        );
    }
}

impl Screen for SkatLab {
    fn draw(&mut self, f: &mut Frame) {
        super::draw(f, self)
    }
    fn handle_event(&mut self, event: Event) {
        // The lab has no mouse actions and no text to paste into.
        if let Event::Key(k) = event {
            SkatLab::handle_key(self, k)
        }
    }
    fn set_exec(&mut self, exec: Exec) {
        self.exec = exec;
    }
    fn tick(&mut self) -> bool {
        let Some(p) = &self.pending else {
            return false;
        };
        let result = match p.work.poll() {
            Polled::Running => return p.work.shown(),
            Polled::Done(r) => r,
            Polled::Failed(why) => Err(AnalysisError::Internal(format!(
                "the analysis failed inside qchess ({why})"
            ))),
        };
        if let Some(p) = self.pending.take() {
            self.take_in(p.index, result, p.stopping);
        }
        true
    }
    fn working(&self) -> bool {
        self.pending.is_some()
    }
    fn min_size(&self) -> (u16, u16) {
        crate::ui::layout::MIN_SIZE
    }
    fn should_quit(&self) -> bool {
        SkatLab::should_quit(self)
    }
}

/// Why `name` could not be analysed, in one message: a refusal for too much work says
/// what it would take and how to run it anyway from the lab's command line.
pub fn refusal(name: &str, e: &AnalysisError) -> String {
    match e {
        AnalysisError::TooMuchWork { estimate, limits } => format!(
            "{name}: too much work, {estimate} (limits {} and {}); \
             `qchess skat --no-limit` runs it",
            duration_words(limits.seconds as f64),
            bytes_words(limits.bytes)
        ),
        e => format!("{name}: {e}"),
    }
}
