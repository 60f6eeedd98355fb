//! Bounded Skat analyses: what would take over a minute or 1 GiB is refused
//! at once with an estimate, `--no-limit` lifts that, a running analysis reports its
//! progress and can be cancelled, and the solver's table has a fixed size.

use qchess::skat::encode::EncodingKind;
use qchess::skat::endgame::preset;
use qchess::skat::{
    analyze, analyze_watched, Allowance, AnalysisError, AnalyzeOptions, Endgame, Progress, Stage,
    Watch,
};
use std::cell::RefCell;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A grand with `each` cards apiece for three seats, nothing known about the deal: far
/// past the default limits at 3 x 8.
fn wide_open(each: usize) -> Endgame {
    let deck: Vec<String> = ["7", "8", "9", "10", "J", "Q", "K", "A"]
        .iter()
        .flat_map(|r| ["C", "S", "H", "D"].map(|s| format!("\"{s}{r}\"")))
        .collect();
    let text = format!(
        "game = \"grand\"\nseats = [\"D\", \"P\", \"S\"]\ndeclarer = \"S\"\nme = \"D\"\n\
         hand = [{}]\nunknown = [{}]\ncards_each = {each}\npoints = {{ defenders = 0 }}\n\
         win = {{ side = \"defenders\", at_least = 30 }}\n",
        deck[..each].join(", "),
        deck[each..3 * each].join(", ")
    );
    Endgame::from_toml(&text).unwrap()
}

fn refused(r: Result<qchess::skat::Analysis, AnalysisError>) -> (f64, u64, bool) {
    match r {
        Err(AnalysisError::TooMuchWork { estimate, limits }) => {
            assert_eq!(limits, Allowance::DEFAULT);
            (estimate.seconds, estimate.bytes, estimate.at_least)
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("not refused"),
    }
}

#[test]
fn big_endgames_are_refused_at_once_with_an_estimate() {
    for (each, encoding) in [
        (8, EncodingKind::Owners),
        (10, EncodingKind::Owners),
        (8, EncodingKind::Index),
    ] {
        let started = Instant::now();
        let opts = AnalyzeOptions {
            encoding,
            ..AnalyzeOptions::default()
        };
        let (seconds, bytes, _) = refused(analyze(&wide_open(each), &opts));
        assert!(
            seconds > 60.0 || bytes > Allowance::DEFAULT.bytes,
            "{each}: {seconds} s {bytes} B"
        );
        // Refused before the work, not after it (with room for the test profile, which
        // is slower than release).
        assert!(
            started.elapsed().as_secs() < 30,
            "{each}: {:?}",
            started.elapsed()
        );
    }
    let e = analyze(&wide_open(8), &AnalyzeOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("too much work: about") && e.contains("--no-limit"),
        "{e}"
    );
    assert!(!e.contains('\n'));
}

#[test]
fn the_solver_is_stopped_once_its_sample_uses_up_its_share() {
    // No counting: only the solver is long. With a one-second limit the first 1/32 of
    // the distributions may search 1/32 of what a second allows; they need more.
    let opts = AnalyzeOptions {
        counting_qubits: 0,
        encoding: EncodingKind::Index,
        limits: Some(Allowance {
            seconds: 1,
            bytes: Allowance::DEFAULT.bytes,
        }),
        ..AnalyzeOptions::default()
    };
    match analyze(&wide_open(7), &opts) {
        Err(AnalysisError::TooMuchWork { estimate, .. }) => {
            assert!(estimate.seconds > 1.0, "{estimate}");
        }
        other => panic!("{:?}", other.map(|a| a.estimate)),
    }
}

#[test]
fn no_limit_runs_what_the_limits_refuse() {
    let eg = Endgame::from_toml(preset("five-each").unwrap()).unwrap();
    let tight = AnalyzeOptions {
        limits: Some(Allowance {
            seconds: 0,
            bytes: Allowance::DEFAULT.bytes,
        }),
        ..AnalyzeOptions::default()
    };
    assert!(matches!(
        analyze(&eg, &tight),
        Err(AnalysisError::TooMuchWork { .. })
    ));
    let tiny = AnalyzeOptions {
        limits: Some(Allowance {
            seconds: 60,
            bytes: 1 << 20,
        }),
        ..AnalyzeOptions::default()
    };
    assert!(matches!(
        analyze(&eg, &tiny),
        Err(AnalysisError::TooMuchWork { .. })
    ));
    let free = AnalyzeOptions {
        limits: None,
        counting_qubits: 2,
        ..AnalyzeOptions::default()
    };
    let a = analyze(&eg, &free).unwrap();
    assert_eq!(a.deals.len(), 126);
    assert!(a.estimate.seconds > 0.0 && a.estimate.bytes > 0);
}

#[test]
fn progress_is_reported_stage_by_stage() {
    let eg = Endgame::from_toml(preset("nine-card").unwrap()).unwrap();
    let seen: RefCell<Vec<Progress>> = RefCell::new(Vec::new());
    let report = |p: &Progress| seen.borrow_mut().push(*p);
    let watch = Watch {
        progress: Some(&report),
        cancel: None,
    };
    let a = analyze_watched(&eg, &AnalyzeOptions::default(), &watch).unwrap();
    let seen = seen.into_inner();
    let stages: Vec<Stage> = seen.iter().map(|p| p.stage).collect();
    for s in [Stage::Solving, Stage::Measuring, Stage::Counting] {
        assert!(stages.contains(&s), "{stages:?}");
    }
    assert!(seen
        .windows(2)
        .all(|w| w[1].fraction >= w[0].fraction - 1e-12));
    assert!(seen
        .iter()
        .all(|p| (0.0..=1.0).contains(&p.fraction) && p.done <= p.total));
    let solving = seen.iter().find(|p| p.stage == Stage::Solving).unwrap();
    assert_eq!(solving.total, a.deals.len() as u64);
}

#[test]
fn a_cancelled_analysis_stops() {
    let eg = Endgame::from_toml(preset("five-each").unwrap()).unwrap();
    for at in [Stage::Solving, Stage::Measuring, Stage::Counting] {
        let flag = Arc::new(AtomicBool::new(false));
        let stop = |p: &Progress| {
            if p.stage == at {
                flag.store(true, Ordering::Relaxed);
            }
        };
        let watch = Watch {
            progress: Some(&stop),
            cancel: Some(flag.clone()),
        };
        let r = analyze_watched(&eg, &AnalyzeOptions::default(), &watch);
        assert!(matches!(r, Err(AnalysisError::Cancelled)), "{at:?}");
    }
}

#[test]
fn the_command_line_refuses_in_one_line_and_has_no_limit() {
    let dir = std::env::temp_dir().join(format!("qchess-skat-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wide.toml");
    let hand = ["C7", "S7", "H7", "D7", "C8", "S8", "H8", "D8"];
    let unknown = [
        "C9", "S9", "H9", "D9", "C10", "S10", "H10", "D10", "CJ", "SJ", "HJ", "DJ", "CQ", "SQ",
        "HQ", "DQ",
    ];
    let list = |v: &[&str]| {
        v.iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    std::fs::write(
        &file,
        format!(
            "game = \"grand\"\nseats = [\"D\", \"P\", \"S\"]\ndeclarer = \"S\"\nme = \"D\"\nhand = [{}]\nunknown = [{}]\ncards_each = 8\npoints = {{ defenders = 0 }}\nwin = {{ side = \"defenders\", at_least = 30 }}\n",
            list(&hand),
            list(&unknown)
        ),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(["skat", "analyze", file.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("too much work"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args([
            "skat",
            "analyze",
            "--preset",
            "nine-card",
            "--no-limit",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

/// The lab's message area at 80x24 with `entry` analysed (in the background, as the
/// terminal runs it): the last two lines of the screen.
fn lab_refusal(endgame: Endgame) -> (String, String) {
    use qchess::skat::screen::{Entry, SkatLab};
    use qchess::style::color::{Paint, Tier};
    use qchess::style::theme::Theme;
    use qchess::ui::Screen;
    let entries = vec![Entry::Endgame {
        name: "wide.toml".into(),
        endgame,
    }];
    let paint = Paint::new(Theme::default(), Tier::None);
    let mut lab = SkatLab::in_background(entries, 0, AnalyzeOptions::default(), paint, false);
    lab.finish_work();
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    t.draw(|f| Screen::draw(&mut lab, f)).unwrap();
    let rows: Vec<String> = (0..24)
        .map(|y| {
            (0..80)
                .map(|x| t.backend().buffer()[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect();
    (lab.message().text.clone(), rows[22..].join("\n"))
}

#[test]
fn the_lab_refuses_too_much_work_in_one_readable_message() {
    let (message, shown) = lab_refusal(wide_open(8));
    assert!(
        message.starts_with("wide.toml: too much work, about "),
        "{message}"
    );
    // What it would take, the limits, and how to run it anyway, all on screen (the
    // command-line hints about counting qubits do not apply to the lab).
    let flowed = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "too much work, about",
        "(limits 60 s and 1.0 GiB)",
        "`qchess skat --no-limit` runs it",
    ] {
        assert!(flowed.contains(part), "{part:?} not in\n{shown}");
    }
    assert!(!message.contains("--counting-qubits"), "{message}");
    assert!(!shown.contains('…'), "{shown}");
}
