//! `qchess manpage` and `qchess completions` as a shell and `man` take them.

use crate::support::cli::qchess;

#[test]
fn a_folder_that_cannot_be_made_is_refused_with_exit_2() {
    let (code, out, err) = qchess(&["manpage", "--dir", "/proc/nope"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.starts_with("qchess: /proc/nope: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The flags with fixed values, and the values the completions offer for each.
fn flags_with_values() -> Vec<(&'static str, Vec<&'static str>)> {
    let puzzle_themes = qchess::puzzles::Theme::ALL.map(qchess::puzzles::Theme::name);
    vec![
        ("puzzle-theme", puzzle_themes.to_vec()),
        ("kind", vec!["arena", "swiss"]),
        ("variant", vec!["quantum", "harmonics", "haft"]),
        ("color", vec!["auto", "truecolor", "256", "16", "none"]),
        ("backend", vec!["sparse", "dense"]),
        ("engine", vec!["white", "black", "both"]),
        ("theme", vec!["classic", "dark", "high-contrast", "mono"]),
        ("level", vec!["1", "2", "3", "4", "5"]),
    ]
}

/// The completion script of `shell`.
fn script(shell: &str) -> String {
    let (code, out, err) = qchess(&["completions", shell]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn bash_completes_the_values_of_flags_that_have_them() {
    let bash = script("bash");
    for (flag, values) in flags_with_values() {
        let case = format!("--{flag})\n");
        let mut seen = 0;
        for (at, _) in bash.match_indices(&case) {
            let reply = bash[at + case.len()..].lines().next().unwrap_or("");
            let offered = format!("compgen -W \"{}\"", values.join(" "));
            assert!(reply.contains(&offered), "--{flag}: {reply}");
            seen += 1;
        }
        assert!(seen > 0, "--{flag} is not in the bash script");
    }
}

#[test]
fn zsh_completes_the_values_of_flags_that_have_them() {
    let zsh = script("zsh");
    for (flag, values) in flags_with_values() {
        // `'--flag=[...]`, or `'(--other)--flag=[...]` when it conflicts with others.
        let specs = [format!("'--{flag}=["), format!(")--{flag}=[")];
        let lines: Vec<&str> = zsh
            .lines()
            .filter(|l| specs.iter().any(|s| l.contains(s)))
            .collect();
        assert!(!lines.is_empty(), "--{flag} is not in the zsh script");
        for line in lines {
            let offered = format!(":({})'", values.join(" "));
            assert!(line.contains(&offered), "--{flag}: {line}");
        }
    }
}

#[test]
fn fish_completes_the_values_of_flags_that_have_them() {
    let fish = script("fish");
    // clap_complete's fish script reaches two levels of subcommands: `club tournament
    // create --kind` is a third.
    let reached = flags_with_values()
        .into_iter()
        .filter(|(flag, _)| *flag != "kind");
    for (flag, values) in reached {
        let option = format!(" -l {flag} ");
        let entries: Vec<&str> = fish
            .split("\ncomplete ")
            .filter(|e| e.contains(&option))
            .collect();
        assert!(!entries.is_empty(), "--{flag} is not in the fish script");
        for entry in entries {
            // Values only (-f: no file names), each offered.
            assert!(entry.contains(" -r -f -a \""), "--{flag}: {entry}");
            for v in &values {
                assert!(
                    entry.contains(&format!("\"{v}\\t")) || entry.contains(&format!("\n{v}\\t")),
                    "--{flag} {v}: {entry}"
                );
            }
        }
    }
}

/// The pages `qchess manpage --dir` writes: name and text.
fn pages() -> Vec<(String, String)> {
    let dir = std::env::temp_dir().join(format!("qchess-cli-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, out, err) = qchess(&["manpage", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let mut pages: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    pages.sort();
    assert!(
        out.starts_with(&format!("{} manual pages written", pages.len())),
        "{out}"
    );
    for (name, text) in &mut pages {
        // Where groff is installed, it reads every page without a warning.
        if let Some(warnings) = groff_warnings(&dir.join(&*name)) {
            assert_eq!(warnings, "", "{name}");
        }
        *text = text.replace("\\-", "-");
    }
    let _ = std::fs::remove_dir_all(&dir);
    pages
}

/// What `groff -man -ww` says about the page at `path`; `None` when groff is not
/// installed (said on standard error).
fn groff_warnings(path: &std::path::Path) -> Option<String> {
    match std::process::Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .arg(path)
        .output()
    {
        Ok(out) => Some(String::from_utf8_lossy(&out.stderr).into_owned()),
        Err(_) => {
            eprintln!("skipped: groff is not installed, the pages were not run through it");
            None
        }
    }
}

#[test]
fn every_page_a_page_names_exists_and_is_plain_ascii_roff() {
    let pages = pages();
    let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    for deep in [
        "qchess.1",
        "qchess-puzzles-play.1",
        "qchess-skat-tui.1",
        "qchess-config-init.1",
    ] {
        assert!(names.contains(&deep), "{deep}: {names:?}");
    }
    let mut named = 0;
    for (name, text) in &pages {
        // Arrows and accents are roff escapes (`\[u2190]`): groff reads them whatever
        // its input encoding.
        assert!(text.is_ascii(), "{name}");
        for (at, _) in text.match_indices("qchess-") {
            let reference: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            if text[at + reference.len()..].starts_with("(1)") {
                named += 1;
                let page = format!("{reference}.1");
                assert!(names.contains(&page.as_str()), "{name} names {page}");
            }
        }
    }
    // Each page but the leaves' names its subcommands.
    assert!(named >= pages.len() - 1, "{named}");
}
