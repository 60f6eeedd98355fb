//! What the game screen asks and says around the game itself: carrying out the answers
//! about leaving and saving, saving to a typed path (`~` expanded, a missing folder asked
//! about), the result in the players' names, and the words printed on the restored
//! terminal when the player leaves.

use crate::chess::{Color, Status};
use crate::record::{Players, RecordError, Recorder, SavedGame};
use crate::ui::input::line_edit::LineEdit;
use crate::ui::layers::kept::{expand_home, home_dir, kept_in, tilde, unsaved_reason};
use crate::ui::layers::question::{Answer, Question};
use crate::ui::layers::typed_line::Purpose;
use crate::ui::message::{Message, Tone};
use std::path::{Path, PathBuf};

/// What the questions about leaving and saving, and the save line, need of the game
/// screen; the flow itself is in the provided methods.
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
    /// Shows the question `q`.
    fn show_question(&mut self, q: Question);
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
        self.show_question(q);
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

    /// Carries out an answer about leaving or saving (the others are the game's).
    fn answered(&mut self, a: Answer) {
        let said = |text: String, tone| Message { text, tone };
        match a {
            Answer::Leave => self.leave(),
            Answer::SaveFirst => self.ask_save_path(),
            Answer::Stay => self.set_message(said("quit cancelled".into(), Tone::Plain)),
            Answer::CreateAndSave(path) => {
                let record = self.record();
                let m = save_to(&path, &record);
                if m.tone == Tone::Info {
                    self.recorder_mut().saved_to(&path, &record);
                    self.close_line();
                }
                self.set_message(m);
            }
            Answer::EditName { dir, typed } => {
                self.open_line(Purpose::SavePath, LineEdit::with_text(typed));
                let dir = tilde(&dir, home_dir().as_deref());
                self.set_message(said(
                    format!("not saved: {dir} does not exist"),
                    Tone::Error,
                ));
            }
            Answer::Decide(..)
            | Answer::PlayOn(_)
            | Answer::PlayRisky(_)
            | Answer::DropRisky(_) => {}
        }
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
