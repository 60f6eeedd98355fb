//! The yes/no question shown over the game (leave? create the folder? resign? play a
//! move that risks the king?): its words, and what each key answers.

use crate::chess::Color;
use crate::game::table::Decision;
use crate::game::Move;
use crate::record::Recorder;
use crate::ui::input::Action;
use crate::ui::layers::kept::{home_dir, kept_in, tilde, unsaved_reason};
use std::path::PathBuf;
use std::time::Duration;

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
    /// The player of `side` left a rated game: claim the win, or wait?
    Claim {
        /// The side whose player left.
        side: Color,
        /// The longest a claim holds their seat (less when their clock has less).
        most: Duration,
    },
    /// The player's move would leave their safe king capturable: play it anyway?
    KingRisk {
        /// The move, played as it is when the answer is yes.
        input: Move,
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
            Question::Claim { side, .. } => {
                format!("{} left the game: y claims the win, n waits", side.name())
            }
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
            Question::Claim { side, most } => Asked {
                title: " Your opponent left ",
                lines: vec![
                    format!("{} left the game.", side.name()),
                    format!(
                        "Claim the win: if they are not back within their time left, at most {} s, the game is yours.",
                        most.as_secs()
                    ),
                ],
                keys: "y claim the win   n wait",
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

/// What an answer asks the game to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Leave the screen.
    Leave,
    /// Open the save line before leaving.
    SaveFirst,
    /// Stay: the quit is cancelled.
    Stay,
    /// Create the missing folder and save the game to this file.
    CreateAndSave(PathBuf),
    /// Back to the save line holding the typed text; the folder is missing.
    EditName {
        /// The missing folder.
        dir: PathBuf,
        /// The line as typed.
        typed: String,
    },
    /// A side resigns, offers, accepts or declines a draw.
    Decide(Color, Decision),
    /// No resignation or draw offer after all: what to say.
    PlayOn(&'static str),
    /// Play the risky move anyway.
    PlayRisky(Move),
    /// The risky move is not played.
    DropRisky(String),
}

impl Question {
    /// What `action` answers, or `None` when it does not answer (the question stays).
    pub fn answer(&self, action: Action) -> Option<Answer> {
        use Action::{Cancel, No, Quit, Save, Yes};
        Some(match (self, action) {
            (Question::Quit, Yes | Quit) => Answer::Leave,
            (Question::Quit, Save) => Answer::SaveFirst,
            (Question::Quit, No) => Answer::Stay,
            (Question::CreateDir { path, .. }, Yes) => Answer::CreateAndSave(path.clone()),
            (Question::CreateDir { dir, typed, .. }, No) => Answer::EditName {
                dir: dir.clone(),
                typed: typed.clone(),
            },
            (Question::Resign { side }, Yes) => Answer::Decide(*side, Decision::Resign),
            (Question::Resign { .. }, No | Cancel) => Answer::PlayOn("not resigned: play on"),
            (Question::OfferDraw { side }, Yes) => Answer::Decide(*side, Decision::OfferDraw),
            (Question::OfferDraw { .. }, No | Cancel) => Answer::PlayOn("no draw offered: play on"),
            (Question::Draw { by }, Yes) => Answer::Decide(by.opposite(), Decision::AcceptDraw),
            (Question::Draw { by }, No | Cancel) => {
                Answer::Decide(by.opposite(), Decision::DeclineDraw)
            }
            (Question::Claim { side, .. }, Yes) => {
                Answer::Decide(side.opposite(), Decision::ClaimWin)
            }
            (Question::Claim { .. }, No | Cancel) => {
                Answer::PlayOn("you wait for your opponent: C claims the win while they are away")
            }
            // Any key but `y` cancels a risky move.
            (Question::KingRisk { input, .. }, Yes) => Answer::PlayRisky(input.clone()),
            (Question::KingRisk { input, .. }, _) => Answer::DropRisky(input.to_string()),
            _ => return None,
        })
    }
}
