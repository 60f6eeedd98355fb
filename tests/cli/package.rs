//! The crate as it would be published: `scripts/publish-check.sh` (`cargo publish
//! --dry-run --locked`) packs it and builds the packed copy from the registry alone.

use std::process::Command;

#[test]
#[ignore = "builds the packed crate once more: cargo test --test cli -- --ignored the_crate_packs"]
fn the_crate_packs_and_builds_as_published() {
    let out = Command::new("sh")
        .args(["scripts/publish-check.sh", "--allow-dirty"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
