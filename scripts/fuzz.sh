#!/bin/sh
# Runs one coverage-guided fuzz target for a number of seconds, on the stable toolchain.
#
#   scripts/fuzz.sh TARGET SECONDS
#
# TARGET is one of: notation fen saved_game config skat_endgame qasm uqci pgn (`list` prints
# them). The targets live in fuzz/ (a cargo-fuzz crate outside the main build); the
# committed seeds are fuzz/seeds/TARGET, what the fuzzer learns goes to fuzz/corpus/TARGET
# and a crashing input to fuzz/artifacts/TARGET. Needs cargo-fuzz
# (`cargo install cargo-fuzz`); `-s none` builds without a sanitizer, which is what
# works on stable Rust (the sanitizers need nightly). Runs under `nice`, since fuzzing
# takes a whole core. The last line says how many inputs ran and whether one crashed.
set -eu

usage() {
    echo "usage: $0 TARGET SECONDS   (TARGET: list, or one of: $targets)" >&2
    exit 2
}

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/fuzz"
targets=$(sed -n 's/^name = "\([a-z_]*\)"$/\1/p' Cargo.toml | grep -v '^qchess-fuzz$' | tr '\n' ' ')

[ $# -ge 1 ] || usage
if [ "$1" = list ]; then
    echo "$targets"
    exit 0
fi
[ $# -eq 2 ] || usage
target=$1
seconds=$2
case " $targets " in
*" $target "*) ;;
*) echo "unknown target \"$target\"" >&2; usage ;;
esac
case $seconds in
'' | *[!0-9]*) echo "SECONDS must be a whole number" >&2; usage ;;
esac
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: cargo install cargo-fuzz" >&2
    exit 2
fi

mkdir -p "corpus/$target" "artifacts/$target"
log=$(mktemp)
trap 'rm -f "$log" "$log.rc"' EXIT
# The exit status of the fuzzer itself, not of tee.
{
    code=0
    nice -n 10 cargo fuzz run -s none -O "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 ||
        code=$?
    echo "$code" >"$log.rc"
} 2>&1 | tee "$log"
status=$(cat "$log.rc")
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
crashes=$(find "artifacts/$target" -type f | wc -l | tr -d ' ')
echo "fuzz $target: ${runs:-?} inputs in ${seconds} s, $crashes crash file(s) in fuzz/artifacts/$target, exit $status"
exit "$status"
