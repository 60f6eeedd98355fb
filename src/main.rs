//! The `qchess` command line: the subcommands, each with its arguments and `run` in its
//! module (the shared parts in `qchess::cli`), and the completions and manual pages of
//! the whole command line.

use clap::{CommandFactory, Parser, Subcommand};
use qchess::cli::{finish, Done, Failure, Outcome};
use std::path::PathBuf;
use std::process::ExitCode;

/// Quantum Chess in the terminal. Without a subcommand, starts a game (as `play`).
#[derive(Parser, Debug)]
#[command(
    name = "qchess",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: qchess::cli::play::PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play in the terminal (the default): hot-seat, or against the computer (--engine).
    Play(qchess::cli::play::PlayArgs),
    /// Play on from the most recent autosave.
    Resume(qchess::cli::play::ResumeArgs),
    /// Step through a saved game: ← → one ply, Home/End, g go to ply, p play on from there.
    Replay(qchess::cli::play::ReplayArgs),
    /// Learn Quantum Chess: short lessons with a task each (qchess learn 3 opens the third).
    Learn(qchess::cli::play::LearnArgs),
    /// Review a saved game: the engine's verdict on every move, mistakes and luck
    /// marked, kept in the file (--json for scripts).
    Review(qchess::cli::review::ReviewArgs),
    /// Play moves from a position and print the resulting state (for scripts and tests).
    Analyze(qchess::cli::analyze::AnalyzeArgs),
    /// Play games between two players (the engine at a level, random, greedy) and
    /// report the score, the Elo difference and the time per move.
    Match(qchess::cli::matches::MatchArgs),
    /// Puzzles whose answers are proved: list the pack (--json), prove it again, or
    /// generate more from engine games.
    Puzzles(qchess::cli::puzzles::PuzzlesArgs),
    /// Speak UQCI (UCI with Quantum Chess moves) on standard input and output, as an
    /// engine for other front ends.
    Uqci,
    /// The Skat lab: card quality from a superposition of card distributions.
    Skat(qchess::cli::skat::SkatArgs),
    /// Write a saved game as PGN (--pgn), or a Quantum Chess game's circuit as
    /// OpenQASM 3 (--qasm).
    Export(qchess::cli::export::ExportArgs),
    /// The configuration file: where it is, or write one with the defaults.
    #[command(subcommand)]
    Config(qchess::cli::config::ConfigCommand),
    /// Lists the colour themes: the built-in ones and yours.
    Themes(qchess::cli::config::ThemesArgs),
    /// The club's database: its players and ratings, the archive of games, a player's
    /// games as PGN, an online backup.
    Club(qchess::cli::club::ClubArgs),
    /// Serve games over SSH: a lobby and rooms (ssh -p 2222 -t NAME@HOST [ROOM]).
    Serve(qchess::cli::serve::ServeArgs),
    /// Print a completion script for a shell (bash, zsh, fish, powershell, elvish).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per subcommand into a folder.
    Manpage {
        /// Write qchess.1 and qchess-SUBCOMMAND.1 here instead of printing qchess.1.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    finish(match cli.command {
        Some(Command::Play(args)) => qchess::cli::play::play(args),
        Some(Command::Resume(args)) => qchess::cli::play::resume(args),
        Some(Command::Replay(args)) => qchess::cli::play::replay(args),
        Some(Command::Learn(args)) => qchess::cli::play::learn(args),
        Some(Command::Review(args)) => qchess::cli::review::run(args),
        Some(Command::Analyze(args)) => qchess::cli::analyze::run(args),
        Some(Command::Match(args)) => qchess::cli::matches::run(args),
        Some(Command::Puzzles(args)) => qchess::cli::puzzles::run(args),
        Some(Command::Uqci) => {
            qchess::uqci::engine::run_stdio();
            Ok(Done::Exit(0))
        }
        Some(Command::Skat(args)) => qchess::cli::skat::run(args),
        Some(Command::Export(args)) => qchess::cli::export::run(args),
        Some(Command::Config(cmd)) => qchess::cli::config::run(cmd),
        Some(Command::Themes(args)) => qchess::cli::config::run_themes(&args),
        Some(Command::Club(args)) => qchess::cli::club::run(args),
        Some(Command::Serve(args)) => qchess::cli::serve::run(args),
        Some(Command::Completions { shell }) => Ok(Done::Print(completions(shell))),
        Some(Command::Manpage { dir }) => manpage(dir),
        None => qchess::cli::play::play(cli.play),
    })
}

/// `qchess manpage`: prints qchess.1, or writes every page into `dir`.
fn manpage(dir: Option<PathBuf>) -> Outcome {
    let Some(dir) = dir else {
        return manual(&manual_command())
            .map(Done::Print)
            .map_err(|e| Failure::with_code(1, format!("cannot write the manual page: {e}")));
    };
    let n = manuals_into(&dir).map_err(|e| Failure::new(format!("{}: {e}", dir.display())))?;
    println!("{n} manual pages written to {}", dir.display());
    Ok(Done::Exit(0))
}

/// The completion script of `shell` for the whole command line.
fn completions(shell: clap_complete::Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "qchess", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The manual page (roff) of `cmd`, every character outside ASCII written as roff's
/// escape for it (`\[u2190]` for `←`), which every man reader takes.
fn manual(cmd: &clap::Command) -> std::io::Result<String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
    Ok(String::from_utf8_lossy(&out)
        .chars()
        .map(|c| match c {
            c if c.is_ascii() => c.to_string(),
            c => format!("\\[u{:04X}]", u32::from(c)),
        })
        .collect())
}

/// The command line whose pages `qchess manpage --dir` writes: built (so that each
/// subcommand's page is named `qchess-SUB-SUB` and its synopsis reads `qchess SUB SUB`),
/// without `help` subcommands (`--help` says it all).
fn manual_command() -> clap::Command {
    fn without_help(cmd: clap::Command) -> clap::Command {
        cmd.disable_help_subcommand(true)
            .mut_subcommands(without_help)
    }
    let mut cmd = without_help(Cli::command());
    cmd.build();
    cmd
}

/// Writes `qchess.1` and a page for each subcommand at every depth
/// (`qchess-puzzles-play.1`) into `dir` (made when missing); how many pages.
fn manuals_into(dir: &std::path::Path) -> std::io::Result<usize> {
    fn write(cmd: &clap::Command, dir: &std::path::Path) -> std::io::Result<usize> {
        let name = cmd.get_display_name().unwrap_or(cmd.get_name());
        std::fs::write(dir.join(format!("{name}.1")), manual(cmd)?)?;
        let mut pages = 1;
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            pages += write(sub, dir)?;
        }
        Ok(pages)
    }
    std::fs::create_dir_all(dir)?;
    write(&manual_command(), dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subcommand's name and every long flag of the command line.
    fn names() -> (Vec<String>, Vec<(String, String)>) {
        let cmd = Cli::command();
        let subs: Vec<String> = cmd.get_subcommands().map(|c| c.get_name().into()).collect();
        let mut flags = Vec::new();
        for sub in cmd.get_subcommands() {
            for arg in sub.get_arguments() {
                if let Some(long) = arg.get_long() {
                    flags.push((sub.get_name().to_string(), format!("--{long}")));
                }
            }
        }
        (subs, flags)
    }

    #[test]
    fn completions_know_every_subcommand_and_flag() {
        let (subs, flags) = names();
        assert!(subs.len() >= 10, "{subs:?}");
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
            clap_complete::Shell::PowerShell,
            clap_complete::Shell::Elvish,
        ] {
            let script = completions(shell);
            for sub in &subs {
                assert!(script.contains(sub.as_str()), "{shell}: {sub}");
            }
            for (sub, flag) in &flags {
                let bare = flag.trim_start_matches('-');
                assert!(script.contains(bare), "{shell}: {sub} {flag}");
            }
        }
    }

    #[test]
    fn the_manual_pages_hold_every_subcommand_and_flag() {
        let (subs, flags) = names();
        let main = manual(&Cli::command()).unwrap();
        for sub in &subs {
            assert!(main.contains(sub.as_str()), "qchess.1: {sub}");
        }
        let dir = std::env::temp_dir().join(format!("qchess-man-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        fn pages(cmd: &clap::Command) -> usize {
            1 + cmd.get_subcommands().map(pages).sum::<usize>()
        }
        // A page for every subcommand at every depth (`qchess puzzles play`).
        let all = pages(&manual_command());
        assert!(all > subs.len() + 1, "{all}");
        assert_eq!(manuals_into(&dir).unwrap(), all);
        assert!(dir.join("qchess-puzzles-play.1").is_file());
        for (sub, flag) in &flags {
            let page = std::fs::read_to_string(dir.join(format!("qchess-{sub}.1"))).unwrap();
            // roff writes a dash as \-.
            let roff = flag.replace('-', "\\-");
            assert!(page.contains(&roff), "qchess-{sub}.1: {flag}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
