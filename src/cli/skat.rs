//! The `qchess skat` command line: open the lab in the terminal (`tui`, the default
//! on a terminal), `analyze` an endgame file or preset, run the four-card `toy`, print
//! the panes of an endgame (`view`, the default when the output is not a terminal),
//! list the `presets`.
//!
//! Errors in what the user gave (a bad file, an impossible endgame, a state too large
//! for the backend) print one line on stderr and exit with code 2.

use crate::cli::{backend_flag, color_flag, Done, Failure, Outcome};
use crate::quantum::BackendKind;
use crate::skat::analysis::{
    analyze_watched, Analysis, AnalysisError, AnalyzeOptions, DEFAULT_COUNTING_QUBITS,
};
use crate::skat::budget::{Allowance, Progress, Watch};
use crate::skat::encode::EncodingKind;
use crate::skat::endgame::{preset, Endgame, Side, PRESETS};
use crate::skat::screen::{builtin_entries, Entry, LabOptions};
use crate::skat::toy::{run_toy, ToyReport};
use crate::skat::view::SkatView;
use crate::style::color::ColorChoice;
use crate::ui::terminal::Ended;
use serde_json::{json, Value};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `qchess skat`.
#[derive(clap::Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SkatArgs {
    /// What to do; without one, the lab opens on a terminal (as `tui`), and the panes
    /// are printed as text (as `view`) when the output is not a terminal.
    #[command(subcommand)]
    pub command: Option<SkatCommand>,
    /// The lab's options when no command is given.
    #[command(flatten)]
    pub tui: TuiArgs,
}

/// Options of the lab in the terminal.
#[derive(clap::Args, Debug, Clone)]
pub struct TuiArgs {
    /// The endgame file (TOML) shown first; the presets follow it.
    #[arg(conflicts_with = "preset")]
    pub file: Option<PathBuf>,
    /// The entry shown first: an endgame (nine-card, the default, or five-each; see
    /// `qchess skat presets`) or toy, the four-card example (`qchess skat toy`).
    #[arg(long)]
    pub preset: Option<String>,
    /// Simulator backend: sparse or dense.
    #[arg(long, default_value = "sparse", value_parser = backend_flag())]
    pub backend: BackendKind,
    /// How distributions become qubits: owners or index.
    #[arg(long, default_value = "owners")]
    pub encoding: EncodingKind,
    /// Suit letters (C S H D) instead of suit symbols.
    #[arg(long)]
    pub ascii: bool,
    /// Colours: auto (from NO_COLOR, COLORTERM, TERM), truecolor, 256, 16 or none.
    #[arg(long, default_value = "auto", value_parser = color_flag())]
    pub color: ColorChoice,
    /// Analyse endgames however long or large they are (default: refuse what would
    /// take over a minute or 1 GB).
    #[arg(long)]
    pub no_limit: bool,
}

/// Where an endgame comes from: a file or a built-in preset.
#[derive(clap::Args, Debug, Clone)]
pub struct Source {
    /// The endgame file (TOML).
    #[arg(conflicts_with = "preset")]
    pub file: Option<PathBuf>,
    /// A built-in endgame instead of a file: nine-card or five-each (`qchess skat
    /// presets`; the four-card toy is `qchess skat toy`).
    #[arg(long)]
    pub preset: Option<String>,
}

/// The Skat lab's commands.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum SkatCommand {
    /// The lab in the terminal: table, probabilities, tricks and circuit of an endgame
    /// (or the four-card toy), switching between the presets.
    Tui(TuiArgs),
    /// Card quality for each card I could lead: distributions won, probability,
    /// quantum counting estimate, recommendation.
    Analyze {
        /// The endgame.
        #[command(flatten)]
        source: Source,
        /// Simulator backend: sparse or dense.
        #[arg(long, default_value = "sparse", value_parser = backend_flag())]
        backend: BackendKind,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Counting qubits for quantum counting (0 skips it).
        #[arg(long, default_value_t = DEFAULT_COUNTING_QUBITS)]
        counting_qubits: usize,
        /// How distributions become qubits: owners (one register per unknown card, as
        /// in the paper) or index (a numbered register; much faster when large).
        #[arg(long, default_value = "owners")]
        encoding: EncodingKind,
        /// Run however long or large the analysis is (default: refuse what would take
        /// over a minute or 1 GB).
        #[arg(long)]
        no_limit: bool,
    },
    /// The paper's four-card example through card-play and trick-taking gates.
    Toy {
        /// Simulator backend: sparse or dense.
        #[arg(long, default_value = "sparse", value_parser = backend_flag())]
        backend: BackendKind,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The four panes (table, probabilities, tricks, circuit) of an endgame as text.
    View {
        /// The endgame.
        #[command(flatten)]
        source: Source,
        /// Simulator backend: sparse or dense.
        #[arg(long, default_value = "sparse", value_parser = backend_flag())]
        backend: BackendKind,
        /// Which distribution the tricks pane plays out (1-based).
        #[arg(long, default_value_t = 1)]
        distribution: usize,
        /// Run however long or large the analysis is.
        #[arg(long)]
        no_limit: bool,
    },
    /// Lists the built-in endgames.
    Presets,
}

/// A failure of what the user gave (exit code 2).
fn refused(message: String) -> Failure {
    Failure::new(message)
}

impl From<AnalysisError> for Failure {
    fn from(e: AnalysisError) -> Failure {
        let code = if matches!(e, AnalysisError::Internal(_)) {
            1
        } else {
            2
        };
        Failure::with_code(code, e)
    }
}

/// The built-in endgames' names, for messages: `nine-card, five-each`.
fn endgame_names() -> String {
    PRESETS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
}

fn load(source: &Source) -> Result<(String, Endgame), Failure> {
    let (label, text) = match (&source.file, &source.preset) {
        (Some(path), _) => {
            let label = path.display().to_string();
            let text = crate::files::read_text(path)
                .map_err(|e| refused(format!("{label}: cannot read: {e}")))?;
            (label, text)
        }
        (None, Some(name)) if name == Entry::Toy.name() => {
            return Err(refused(format!(
                "{name} is the four-card example, not an endgame: `qchess skat {name}` runs \
                 it (the endgames: {})",
                endgame_names()
            )))
        }
        (None, Some(name)) => {
            let text = preset(name).ok_or_else(|| {
                refused(format!(
                    "unknown preset \"{name}\" (choose {})",
                    endgame_names()
                ))
            })?;
            (format!("preset {name}"), text.to_string())
        }
        (None, None) => return Err(refused("give an endgame FILE or --preset NAME".to_string())),
    };
    let eg = Endgame::from_toml(&text).map_err(|e| refused(format!("{label}: {e}")))?;
    Ok((label, eg))
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

/// The analysis as the JSON document of `analyze --json`.
pub fn analysis_json(a: &Analysis) -> Value {
    let n = a.deals.len();
    let cards: Vec<Value> = a
        .cards
        .iter()
        .map(|c| {
            let quantum = c.quantum.as_ref().map(|q| {
                json!({
                    "estimate": round(q.estimate, 3),
                    "error_bound": round(q.error_bound, 3),
                    "counting_qubits": q.counting_qubits,
                    "oracle_calls": q.oracle_calls,
                    "classical_evaluations": n,
                    "outcome": q.outcome,
                    "outcome_probability": round(q.outcome_probability, 4),
                })
            });
            json!({
                "card": c.card.to_string(),
                "wins": c.wins,
                "total": n,
                "p_win": round(c.p_win, 4),
                "mean_points": round(c.mean_points, 2),
                "quantum": quantum,
            })
        })
        .collect();
    json!({
        "distributions": n,
        "backend": a.backend.name(),
        "encoding": a.encoding.name(),
        "cards": cards,
        "recommendation": a.recommended().card.to_string(),
    })
}

/// The analysis as the text table of `analyze`.
pub fn analysis_text(label: &str, a: &Analysis) -> String {
    let eg = &a.endgame;
    let n = a.deals.len();
    let me = &eg.seats[eg.me];
    let role = if eg.is_defender(eg.me) {
        "defends"
    } else {
        "declares"
    };
    let unknown: Vec<String> = eg.unknown.iter().map(|c| c.to_string()).collect();
    let mut s = format!(
        "{label}: {} game; {me} leads and {role}; declarer {}; favourable: {} {} {}\n",
        eg.game.name(),
        eg.seats[eg.declarer],
        eg.win.side.name(),
        if eg.win.side == Side::Defenders {
            "reach"
        } else {
            "reaches"
        },
        eg.win.at_least
    );
    s += &format!(
        "{n} distribution(s) of {} in superposition on {} {} qubits ({} backend)\n\n",
        unknown.join(" "),
        a.data_qubits,
        if a.encoding == EncodingKind::Owners {
            "owner"
        } else {
            "index"
        },
        a.backend
    );
    let quantum_head = match a.cards.first().and_then(|c| c.quantum.as_ref()) {
        Some(q) => format!(
            "  quantum counting ({} qubits, {} oracle calls vs {n})",
            q.counting_qubits, q.oracle_calls
        ),
        None => String::new(),
    };
    s += &format!("card   wins    p_win  mean points{quantum_head}\n");
    for c in &a.cards {
        let q = match &c.quantum {
            Some(q) => format!("  {:.2} ± {:.2}", q.estimate, q.error_bound),
            None => String::new(),
        };
        s += &format!(
            "{:<5} {:>3}/{:<3} {:.4}  {:>6.1}     {q}\n",
            c.card.to_string(),
            c.wins,
            n,
            c.p_win,
            c.mean_points
        );
    }
    let best = a.recommended();
    s += &format!(
        "\nrecommendation: {} (wins {} of {n} distribution(s))\n",
        best.card, best.wins
    );
    s
}

/// The toy run as JSON.
pub fn toy_json(r: &ToyReport) -> Value {
    json!({
        "backend": r.backend.name(),
        "cards": r.cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "phases": r.phases.iter().map(|p| json!({
            "name": p.name,
            "unitary": p.unitary,
            "branches": p.branches,
            "basis_states": p.basis_states,
        })).collect::<Vec<_>>(),
        "outcomes": r.outcomes.iter().map(|o| json!({
            "a_stack": o.a_stack.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "b_stack": o.b_stack.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "a_points": o.a_points,
            "probability": round(o.probability, 6),
        })).collect::<Vec<_>>(),
        "expected_a_points": round(r.expected_a_points, 6),
        "p_win_a": round(r.p_win_a, 6),
    })
}

/// The toy run as text.
pub fn toy_text(r: &ToyReport) -> String {
    let cards: Vec<String> = r.cards.iter().map(|c| c.to_string()).collect();
    let mut s = format!(
        "Four-card toy: players A and B, {} (trick order), two cards each; {} backend\n\n",
        cards.join(" "),
        r.backend
    );
    for p in &r.phases {
        s += &format!(
            "{:<22} {:<22} {:>2} branches ({} basis states with ancillas)\n",
            p.name, p.unitary, p.branches, p.basis_states
        );
        if p.branches <= 12 {
            for (st, pr) in &p.states {
                s += &format!("    {pr:.4}  {st}\n");
            }
        }
    }
    s += "\nfinal outcomes:\n";
    let list = |v: &[crate::skat::cards::Card]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    for o in &r.outcomes {
        s += &format!(
            "  {:.4}  A's stack: {:<14} B's stack: {:<14} A has {}\n",
            o.probability,
            list(&o.a_stack),
            list(&o.b_stack),
            o.a_points
        );
    }
    s += &format!(
        "\n<S_A> = {:.4}; P_fav (A takes at least {}) = {:.4}\n",
        r.expected_a_points, r.a_needs, r.p_win_a
    );
    s += "\ncircuit:\n";
    for c in &r.circuit {
        s += &format!("  {:<22} {}\n", c.stage, c.detail);
    }
    s
}

/// The command a bare `qchess skat` stands for when the output is not a terminal: the
/// panes of the chosen endgame as text (the toy's report for the toy).
fn text_instead(t: TuiArgs) -> SkatCommand {
    if t.file.is_none() && t.preset.as_deref() == Some(Entry::Toy.name()) {
        return SkatCommand::Toy {
            backend: t.backend,
            json: false,
        };
    }
    let preset = if t.file.is_none() {
        Some(t.preset.unwrap_or_else(|| "nine-card".into()))
    } else {
        None
    };
    SkatCommand::View {
        source: Source {
            file: t.file,
            preset,
        },
        backend: t.backend,
        distribution: 1,
        no_limit: t.no_limit,
    }
}

/// The lab's entries and the one shown first.
fn lab_options(t: TuiArgs) -> Result<LabOptions, Failure> {
    let mut entries = builtin_entries();
    let start = match (&t.file, &t.preset) {
        (Some(_), _) => {
            let (label, endgame) = load(&Source {
                file: t.file.clone(),
                preset: None,
            })?;
            entries.insert(
                0,
                Entry::Endgame {
                    name: label,
                    endgame,
                },
            );
            0
        }
        (None, Some(name)) => entries
            .iter()
            .position(|e| e.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = entries.iter().map(|e| e.name()).collect();
                refused(format!(
                    "unknown preset \"{name}\" (choose {})",
                    names.join(", ")
                ))
            })?,
        (None, None) => 0,
    };
    Ok(LabOptions {
        entries,
        start,
        analyze: AnalyzeOptions {
            backend: t.backend,
            encoding: t.encoding,
            limits: limits(t.no_limit),
            ..AnalyzeOptions::default()
        },
        ascii: t.ascii,
        color: t.color,
    })
}

/// Opens the lab in the terminal; the exit code is 0 on quit, 128 + the signal when
/// one stopped it, 2 when the endgame or the terminal failed.
fn tui(t: TuiArgs) -> Result<u8, Failure> {
    let opts = lab_options(t)?;
    if !std::io::stdout().is_terminal() {
        return Err(refused(
            "the Skat lab needs a terminal (`qchess skat view` prints the panes as text)"
                .to_string(),
        ));
    }
    match crate::skat::screen::run(opts) {
        Ok(Ended::Quit) => Ok(0),
        Ok(Ended::Signal(sig)) => Ok((128 + sig).clamp(0, 255) as u8),
        Err(e) => Err(refused(e.to_string())),
    }
}

/// The limits of `--no-limit` given or not.
fn limits(no_limit: bool) -> Option<Allowance> {
    (!no_limit).then_some(Allowance::DEFAULT)
}

/// A run shows its progress bar once it has taken this long (or is expected to).
const BAR_AFTER: std::time::Duration = std::time::Duration::from_millis(500);

/// Analyses `eg`, with a progress bar on standard error (when it is a terminal) for a
/// run that takes longer than half a second; errors name the endgame.
fn analyze_with_bar(label: &str, eg: &Endgame, opts: &AnalyzeOptions) -> Result<Analysis, Failure> {
    let bar = indicatif::ProgressBar::hidden();
    let progress = |p: &Progress| {
        if bar.is_hidden() {
            if p.elapsed < BAR_AFTER && p.estimate.seconds < BAR_AFTER.as_secs_f64() {
                return;
            }
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            bar.set_length(1000);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:30} {percent:>3}% {elapsed:>4} of ~{prefix}: {msg}",
            ) {
                bar.set_style(style);
            }
        }
        bar.set_prefix(crate::skat::budget::duration_words(p.estimate.seconds));
        bar.set_message(format!("{} ({} of {})", p.stage.name(), p.done, p.total));
        bar.set_position((p.fraction * 1000.0) as u64);
    };
    let watch = Watch {
        progress: Some(&progress),
        cancel: None,
    };
    let result = analyze_watched(eg, opts, &watch);
    bar.finish_and_clear();
    result.map_err(|e| {
        let mut f = Failure::from(e);
        f.message = format!("{label}: {}", f.message);
        f
    })
}

fn execute(command: SkatCommand) -> Outcome {
    let text = match command {
        SkatCommand::Tui(t) => return tui(t).map(Done::Exit),
        SkatCommand::Analyze {
            source,
            backend,
            json,
            counting_qubits,
            encoding,
            no_limit,
        } => {
            let (label, eg) = load(&source)?;
            let opts = AnalyzeOptions {
                backend,
                counting_qubits,
                encoding,
                limits: limits(no_limit),
            };
            let a = analyze_with_bar(&label, &eg, &opts)?;
            if json {
                format!("{}\n", analysis_json(&a))
            } else {
                analysis_text(&label, &a)
            }
        }
        SkatCommand::Toy { backend, json } => {
            let r = run_toy(backend).map_err(|e| Failure::with_code(1, format!("toy: {e}")))?;
            if json {
                format!("{}\n", toy_json(&r))
            } else {
                toy_text(&r)
            }
        }
        SkatCommand::View {
            source,
            backend,
            distribution,
            no_limit,
        } => {
            let (label, eg) = load(&source)?;
            let opts = AnalyzeOptions {
                backend,
                limits: limits(no_limit),
                ..AnalyzeOptions::default()
            };
            let a = analyze_with_bar(&label, &eg, &opts)?;
            SkatView::new(&a, distribution.saturating_sub(1)).render_text()
        }
        SkatCommand::Presets => PRESETS
            .iter()
            .map(|(name, what, _)| format!("{name:<10} {what}\n"))
            .collect(),
    };
    Ok(Done::Print(text))
}

/// Runs a `qchess skat` command: its output, or its error on one line; the exit code is
/// 0, 2 for bad input, 1 for an internal failure, 128 + the signal when one stopped the
/// lab.
pub fn run(args: SkatArgs) -> Outcome {
    let command = match args.command {
        Some(c) => c,
        None if std::io::stdout().is_terminal() => SkatCommand::Tui(args.tui),
        None => text_instead(args.tui),
    };
    execute(command).map_err(|f| Failure {
        message: f.message.replace('\n', " "),
        ..f
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        skat: SkatArgs,
    }

    #[test]
    fn no_limit_reaches_the_lab() {
        for (args, limits) in [
            (&["qchess"][..], Some(Allowance::DEFAULT)),
            (&["qchess", "--no-limit"], None),
            (&["qchess", "tui", "--no-limit"], None),
            (
                &["qchess", "tui", "--preset", "five-each"],
                Some(Allowance::DEFAULT),
            ),
        ] {
            let cli = Cli::try_parse_from(args).expect("parses");
            let tui = match cli.skat.command {
                Some(SkatCommand::Tui(t)) => t,
                None => cli.skat.tui,
                Some(other) => panic!("{args:?}: {other:?}"),
            };
            let opts = lab_options(tui).unwrap_or_else(|f| panic!("{}", f.message));
            assert_eq!(opts.analyze.limits, limits, "{args:?}");
        }
    }
}
