//! `qchess manpage` and `qchess completions` as a shell and `man` take them.

use crate::support::cli::qchess;

#[test]
fn a_folder_that_cannot_be_made_is_refused_with_exit_2() {
    let (code, out, err) = qchess(&["manpage", "--dir", "/proc/nope"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.starts_with("qchess: /proc/nope: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
