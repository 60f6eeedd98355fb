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
    vec![
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
    for (flag, values) in flags_with_values() {
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
