//! What both game screens ask and say around the game itself: what a typed line is for,
//! the yes/no questions (leave? create a folder?), saving to a typed path (`~` expanded,
//! a missing folder asked about), the result in the players' names, and the words
//! printed on the restored terminal when the player leaves.

use super::input::Action;
use super::line_edit::LineEdit;
use super::message::{Message, Tone};
use crate::chess::{Color, Status};
use crate::record::{Players, RecordError, Recorder, SavedGame};
use std::path::{Path, PathBuf};

/// What a line typed at the bottom is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A move in notation.
    Move,
    /// The file to save the game to.
    SavePath,
    /// The ply to show in replay.
    GotoPly,
}

impl Purpose {
    /// The label before the typed text.
    pub fn label(self) -> &'static str {
        match self {
            Purpose::Move => ": ",
            Purpose::SavePath => "save to: ",
            Purpose::GotoPly => "go to ply: ",
        }
    }
}

/// A yes/no question shown over the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Leave the game?
    Quit,
    /// The folder of a typed save path is missing: create it and save?
    CreateDir {
        /// The missing folder.
        dir: PathBuf,
        /// The file to save to.
        path: PathBuf,
        /// The line as typed, given back when the answer is no.
        typed: String,
    },
    /// Resign the game for `side`?
    Resign {
        /// The side that would resign.
        side: Color,
    },
    /// Offer a draw for `side`?
    OfferDraw {
        /// The side that would offer it.
        side: Color,
    },
    /// `by` offers a draw: does the other side accept?
    Draw {
        /// The side that offers it.
        by: Color,
    },
    /// The player's move would leave their safe king capturable: play it anyway?
    KingRisk {
        /// The move as given.
        input: String,
        /// How likely the king is taken on the reply, and by which capture ("100% by
        /// e4xd3").
        risk: String,
    },
}

/// A popup's words: title, lines, and the keys that answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The popup title.
    pub title: &'static str,
    /// What it says.
    pub lines: Vec<String>,
    /// The answering keys.
    pub keys: &'static str,
}

impl Question {
    /// The message line while the question is shown; `recorder` says where the game is
    /// autosaved (the file's name: its folder is in the popup).
    pub fn line(&self, recorder: &Recorder) -> String {
        match self {
            Question::Quit => match kept_in(recorder) {
                Some(p) => format!(
                    "Quit? y or q leaves, n stays; saved as {}",
                    p.file()
                        .file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                ),
                None => format!(
                    "Quit? y or q leaves, n stays, w saves: not saved ({})",
                    unsaved_reason(recorder)
                ),
            },
            Question::CreateDir { dir, .. } => {
                format!("create {}? y/n", tilde(dir, home_dir().as_deref()))
            }
            Question::Resign { side } => format!("{} resigns? y resigns, n plays on", side.name()),
            Question::OfferDraw { side } => {
                format!("{} offers a draw? y offers, n plays on", side.name())
            }
            Question::Draw { by } => format!(
                "{} offers a draw: {}, y accepts, n declines",
                by.name(),
                by.opposite().name()
            ),
            Question::KingRisk { input, risk } => format!(
                "after {input} your king can be taken ({risk}): y plays it, any other key cancels"
            ),
        }
    }

    /// The popup's words; `recorder` says where the game is autosaved.
    pub fn asked(&self, recorder: &Recorder) -> Asked {
        let home = home_dir();
        match self {
            Question::Quit => match kept_in(recorder) {
                Some(p) => Asked {
                    title: " Quit? ",
                    lines: vec![
                        format!(
                            "Quit? the game is saved as {}",
                            tilde(p.file(), home.as_deref())
                        ),
                        format!("{} plays on from it.", p.play_on(home.as_deref())),
                    ],
                    keys: "y or q leave   n stay",
                },
                None => Asked {
                    title: " Quit? ",
                    lines: vec![
                        format!("Quit? the game is not saved: {}.", unsaved_reason(recorder)),
                        "w saves it to a file first.".into(),
                    ],
                    keys: "y or q leave   n stay   w save",
                },
            },
            Question::CreateDir { dir, path, .. } => Asked {
                title: " Create the folder? ",
                lines: vec![
                    format!("{} does not exist.", tilde(dir, home.as_deref())),
                    format!(
                        "Create it and save the game as {}?",
                        path.file_name()
                            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                    ),
                ],
                keys: "y create and save   n edit the name",
            },
            Question::Resign { side } => Asked {
                title: " Resign? ",
                lines: vec![format!(
                    "{} gives up the game: the other side wins.",
                    side.name()
                )],
                keys: "y resign   n play on",
            },
            Question::OfferDraw { side } => Asked {
                title: " Offer a draw? ",
                lines: vec![format!(
                    "{} offers {} a draw: the game ends drawn if it is accepted.",
                    side.name(),
                    side.opposite().name()
                )],
                keys: "y offer   n play on",
            },
            Question::Draw { by } => Asked {
                title: " Draw offered ",
                lines: vec![
                    format!("{} offers a draw.", by.name()),
                    format!("{}: accept?", by.opposite().name()),
                ],
                keys: "y accept   n decline",
            },
            Question::KingRisk { input, risk } => Asked {
                title: " Your king? ",
                lines: vec![
                    format!("After {input} your king can be taken"),
                    format!("on the reply: {risk}."),
                    "Play it anyway?".into(),
                ],
                keys: "y play it   any other key cancels",
            },
        }
    }
}

/// What the questions and the save line need of a game screen (the Quantum Chess one
/// and the variants' one); the flow itself is in the provided methods, shared by both.
pub trait Asking {
    /// Where the game is saved.
    fn recorder(&self) -> &Recorder;
    /// The same, to note a save.
    fn recorder_mut(&mut self) -> &mut Recorder;
    /// The record of the whole game, for saving.
    fn record(&self) -> SavedGame;
    /// Whether leaving would drop a game in progress (moves played, not over, not a
    /// replay): then `q` asks first.
    fn playing(&self) -> bool;
    /// The question shown.
    fn question_mut(&mut self) -> &mut Option<Question>;
    /// Sets the message line.
    fn set_message(&mut self, m: Message);
    /// Opens the typed line for `purpose` holding `line`.
    fn open_line(&mut self, purpose: Purpose, line: LineEdit);
    /// Closes the typed line, if one is open.
    fn close_line(&mut self);
    /// Leaves the screen.
    fn leave(&mut self);

    /// Shows `q`, its short form on the message line.
    fn ask(&mut self, q: Question) {
        self.set_message(Message {
            text: q.line(self.recorder()),
            tone: Tone::Plain,
        });
        *self.question_mut() = Some(q);
    }

    /// `q`: leaves at once when there is nothing to lose; during a game, asks first.
    fn ask_quit(&mut self) {
        if self.playing() {
            self.ask(Question::Quit);
        } else {
            self.leave();
        }
    }

    /// Opens the save line offering the default file, selected (typing replaces it).
    fn ask_save_path(&mut self) {
        let offered = self.recorder().default_save_path();
        let line = LineEdit::offered(tilde(&offered, home_dir().as_deref()));
        self.open_line(Purpose::SavePath, line);
        self.set_message(Message {
            text: SAVE_HINT.into(),
            tone: Tone::Plain,
        });
    }

    /// Saves to the path typed on the save line, or asks about a missing folder first.
    /// The line stays open after a failure, so that the path can be fixed.
    fn save_typed_path(&mut self, typed: &str) {
        let record = self.record();
        match save_typed(typed, self.recorder(), &record) {
            SaveStep::Done(m, saved) => {
                if let Some(path) = saved {
                    self.recorder_mut().saved_to(&path, &record);
                    self.close_line();
                }
                self.set_message(m);
            }
            SaveStep::Ask(q) => self.ask(q),
        }
    }

    /// Applies `action` as the answer to `q` (already taken off the screen); a key that
    /// does not answer leaves the question up.
    fn answer(&mut self, q: Question, action: Action) {
        let said = |text: String, tone| Message { text, tone };
        match (q, action) {
            (Question::Quit, Action::Yes | Action::Quit) => self.leave(),
            (Question::Quit, Action::Save) => self.ask_save_path(),
            (Question::Quit, Action::No) => {
                self.set_message(said("quit cancelled".into(), Tone::Plain))
            }
            (Question::CreateDir { path, .. }, Action::Yes) => {
                let record = self.record();
                let m = save_to(&path, &record);
                if m.tone == Tone::Info {
                    self.recorder_mut().saved_to(&path, &record);
                    self.close_line();
                }
                self.set_message(m);
            }
            (Question::CreateDir { dir, typed, .. }, Action::No) => {
                self.open_line(Purpose::SavePath, LineEdit::with_text(typed));
                let dir = tilde(&dir, home_dir().as_deref());
                self.set_message(said(
                    format!("not saved: {dir} does not exist"),
                    Tone::Error,
                ));
            }
            (q, _) => *self.question_mut() = Some(q),
        }
    }
}

/// Where a game is kept when the player leaves.
pub(super) enum Kept {
    /// In the autosave file.
    Autosave(PathBuf),
    /// In the file the player saved it to, unchanged since.
    Saved(PathBuf),
}

impl Kept {
    pub(super) fn file(&self) -> &Path {
        match self {
            Kept::Autosave(p) | Kept::Saved(p) => p,
        }
    }

    /// The command that plays on from it.
    fn play_on(&self, home: Option<&Path>) -> String {
        match self {
            Kept::Autosave(_) => "qchess resume".into(),
            Kept::Saved(p) => format!("qchess play --load {}", tilde(p, home)),
        }
    }
}

/// Where the game is kept: the file the player saved it to while nothing changed since,
/// else the autosave file once written.
pub(super) fn kept_in(recorder: &Recorder) -> Option<Kept> {
    // The file the player saved to, while it holds the game as it is: the name they
    // chose and will look for, rather than the autosave's.
    match recorder.saved_file() {
        Some(p) => Some(Kept::Saved(p.to_path_buf())),
        None => recorder
            .autosave_to
            .clone()
            .filter(|p| p.exists())
            .map(Kept::Autosave),
    }
}

/// Why a game has no autosave file.
fn unsaved_reason(recorder: &Recorder) -> &'static str {
    match (&recorder.autosave_to, recorder.autosave) {
        (Some(_), _) => "the autosave could not be written",
        (None, true) => "there is no data folder for autosaves",
        (None, false) => "autosave is off",
    }
}

/// The user's home folder.
pub fn home_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf())
}

/// A typed path with a leading `~` (alone or before a `/`) replaced by `home`.
pub fn expand_home(typed: &str, home: Option<&Path>) -> PathBuf {
    let rest = match typed.strip_prefix('~') {
        Some(r) if r.is_empty() || r.starts_with('/') || r.starts_with('\\') => r,
        _ => return PathBuf::from(typed),
    };
    match home {
        Some(h) => h.join(rest.trim_start_matches(['/', '\\'])),
        None => PathBuf::from(typed),
    }
}

/// A path for showing: inside `home`, written from `~`.
pub fn tilde(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".into(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

/// What saving to a typed path comes to: done (saved or failed, in words), or a
/// question first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveStep {
    /// Saved (Info, with the file) or not (Error), in words.
    Done(Message, Option<PathBuf>),
    /// A folder on the way is missing: ask before creating it.
    Ask(Question),
}

/// Saves `saved` to the path typed by the player. `~` is the home folder; a folder
/// (an existing one, or a path ending in `/`) gets the offered file name. A missing
/// folder is created without asking only when it is qchess's own saves folder (and the
/// message says so); any other is asked about first.
pub fn save_typed(typed: &str, recorder: &Recorder, saved: &SavedGame) -> SaveStep {
    let home = home_dir();
    let mut path = expand_home(typed, home.as_deref());
    if path.is_dir() || typed.ends_with(['/', '\\']) {
        if let Some(name) = recorder.default_save_path().file_name() {
            path = path.join(name);
        }
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(Path::to_path_buf);
    match dir {
        Some(dir) if !dir.exists() => {
            let ours = recorder.data_dir.as_deref().map(crate::record::saves_dir);
            if ours.as_deref() == Some(dir.as_path()) {
                let mut m = save_to(&path, saved);
                if m.tone == Tone::Info {
                    m.text = format!("{} (new folder {})", m.text, dir.display());
                }
                done(m, path)
            } else {
                SaveStep::Ask(Question::CreateDir {
                    dir,
                    path,
                    typed: typed.into(),
                })
            }
        }
        _ => done(save_to(&path, saved), path),
    }
}

/// The step that said `m` about saving to `path`.
fn done(m: Message, path: PathBuf) -> SaveStep {
    let saved = (m.tone == Tone::Info).then_some(path);
    SaveStep::Done(m, saved)
}

/// Saves to `path` (creating its folder) and says how it went (Info when saved).
pub fn save_to(path: &Path, saved: &SavedGame) -> Message {
    match crate::record::save(path, saved) {
        Ok(()) => Message {
            text: format!("saved to {}", path.display()),
            tone: Tone::Info,
        },
        Err(e) => Message {
            text: e.to_string(),
            tone: Tone::Error,
        },
    }
}

/// Writes the autosave; on failure, `said` with the failure added (never fatal). The
/// reason comes before the file's path, so a narrow message area cuts the path, not the
/// reason.
pub fn autosave_message(recorder: &Recorder, saved: &SavedGame, said: &Message) -> Option<Message> {
    recorder.autosave(saved).err().map(|e| {
        let why = match e {
            RecordError::Io { path, source } => format!("{source}: {}", path.display()),
            e => e.to_string(),
        };
        Message {
            text: format!("{}. Autosave failed: {why}", said.text),
            tone: Tone::Error,
        }
    })
}

/// The hint while the save line is open.
pub const SAVE_HINT: &str = "Enter saves here; type to replace, ← → to edit; Esc cancels";

/// The result in the players' names: `Ann wins`, `draw`; with the colour when both
/// sides have one name (`white (qchess level 3) wins`, the computer against itself).
pub fn result_words(status: Status, players: &Players) -> String {
    let (colour, name) = match status {
        Status::WhiteWins => (Color::White.name(), &players.white),
        Status::BlackWins => (Color::Black.name(), &players.black),
        s => return s.describe().into(),
    };
    if players.white == players.black {
        format!("{colour} ({name}) wins")
    } else {
        format!("{name} wins")
    }
}

/// What to print on the restored terminal after the player left a game of `moves`
/// moves: where it is saved and how to play on; `None` when nothing was played.
pub fn farewell(recorder: &Recorder, moves: usize, ongoing: bool) -> Option<String> {
    if moves == 0 {
        return None;
    }
    Some(match kept_in(recorder) {
        Some(p) if ongoing => format!(
            "qchess: the game is saved in {}\n{} plays on from it",
            p.file().display(),
            p.play_on(home_dir().as_deref())
        ),
        Some(p) => format!(
            "qchess: the game is saved in {}\nqchess replay {} steps through it (R there reviews it)",
            p.file().display(),
            tilde(p.file(), home_dir().as_deref())
        ),
        None => format!(
            "qchess: the game was not saved ({})",
            unsaved_reason(recorder)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Game, GameOptions};
    use crate::game::Playable;

    #[test]
    fn home_is_expanded_and_shown_as_tilde() {
        let home = Path::new("/home/ann");
        assert_eq!(
            expand_home("~/games/g.toml", Some(home)),
            PathBuf::from("/home/ann/games/g.toml")
        );
        assert_eq!(expand_home("~", Some(home)), PathBuf::from("/home/ann"));
        assert_eq!(
            expand_home("~bo/g.toml", Some(home)),
            PathBuf::from("~bo/g.toml")
        );
        assert_eq!(expand_home("a/~/g", Some(home)), PathBuf::from("a/~/g"));
        assert_eq!(expand_home("~/g", None), PathBuf::from("~/g"));
        assert_eq!(
            tilde(Path::new("/home/ann/x/g.toml"), Some(home)),
            "~/x/g.toml"
        );
        assert_eq!(tilde(Path::new("/tmp/g.toml"), Some(home)), "/tmp/g.toml");
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("qchess-prompts-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn missing_folders_are_asked_about_except_our_own() {
        let data = scratch("save");
        let rec = Recorder::new(Some(data.clone()), true, Players::default(), 0);
        let game: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        let saved = SavedGame::of(game.as_ref(), &rec.players, &rec.date);

        let other = data.join("new/deeper/g.toml");
        let step = save_typed(&other.display().to_string(), &rec, &saved);
        assert!(
            matches!(&step, SaveStep::Ask(Question::CreateDir { dir, .. }) if dir == &data.join("new/deeper")),
            "{step:?}"
        );
        assert!(
            !data.join("new").exists(),
            "nothing is created before the answer"
        );

        let offered = rec.default_save_path().display().to_string();
        let SaveStep::Done(m, _) = save_typed(&offered, &rec, &saved) else {
            panic!("our saves folder is created without asking");
        };
        assert_eq!(m.tone, Tone::Info, "{}", m.text);
        assert!(m.text.contains("new folder"), "{}", m.text);

        // A folder gets the offered file name.
        let SaveStep::Done(m, _) = save_typed(&format!("{}/", data.display()), &rec, &saved) else {
            panic!("the folder exists");
        };
        assert_eq!(m.tone, Tone::Info, "{}", m.text);
        assert!(
            data.join("qchess-19700101-000000.toml").exists(),
            "{}",
            m.text
        );
        let _ = std::fs::remove_dir_all(&data);
    }

    #[test]
    fn winners_by_name_and_farewells() {
        let players = Players {
            white: "Ann".into(),
            black: "Bo".into(),
        };
        assert_eq!(result_words(Status::WhiteWins, &players), "Ann wins");
        assert_eq!(result_words(Status::BlackWins, &players), "Bo wins");
        assert_eq!(result_words(Status::Draw, &players), "draw");
        let same = Players {
            white: "qchess level 3".into(),
            black: "qchess level 3".into(),
        };
        assert_eq!(
            result_words(Status::BlackWins, &same),
            "black (qchess level 3) wins"
        );

        let data = scratch("bye");
        let mut rec = Recorder::new(Some(data.clone()), true, players, 0);
        assert_eq!(farewell(&rec, 0, true), None);
        // Not written yet: not claimed as saved.
        let bye = farewell(&rec, 3, true).unwrap_or_default();
        assert!(bye.contains("not saved"), "{bye}");
        let game: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        let saved = SavedGame::of(game.as_ref(), &rec.players, &rec.date);
        rec.autosave(&saved).unwrap();
        let bye = farewell(&rec, 3, true).unwrap_or_default();
        assert!(bye.contains("autosave/game-19700101-000000-"), "{bye}");
        assert!(bye.contains("qchess resume"), "{bye}");
        let over = farewell(&rec, 3, false).unwrap_or_default();
        assert!(!over.contains("resume"), "{over}");
        // A finished game: how to step through it and review it.
        assert!(
            over.contains("\nqchess replay ") && over.contains("(R there reviews it)"),
            "{over}"
        );
        rec.autosave = false;
        rec.autosave_to = None;
        assert_eq!(
            farewell(&rec, 3, true).as_deref(),
            Some("qchess: the game was not saved (autosave is off)")
        );
        let _ = std::fs::remove_dir_all(&data);
    }
}
