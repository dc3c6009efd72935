#!/usr/bin/env bash
# Instructions per iteration of each benchmarked side, counted by callgrind: repeatable on a
# busy machine, where criterion's wall-clock medians are not. Complements `cargo bench`.
#
#   bash benches/callgrind.sh            # all cases
#   bash benches/callgrind.sh call       # cases whose name starts with "call"
#
# Each case runs twice (N1 and N2 iterations) with collection limited to the timed loop; the
# difference divided by N2 - N1 is the cost of one iteration, without set-up and warm-up.
# Profiles are kept in $OUT (default /tmp/toolgroup-callgrind) for callgrind_annotate.
set -euo pipefail
cd "$(dirname "$0")"
FILTER=${1:-}
N1=${N1:-1000}
N2=${N2:-6000}
OUT=${OUT:-/tmp/toolgroup-callgrind}
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$OUT"
cargo build --quiet --profile bench --example profile
BIN="$TARGET/release/examples/profile"

count() {
    valgrind --tool=callgrind --toggle-collect='profile::timed*' \
        --callgrind-out-file="$OUT/$1.$2.out" "$BIN" "$1" "$2" 2>&1 |
        awk '/Collected/ { print $NF }'
}

declare -A PER
for case in cheap-toolgroup cheap-baseline cheap-policy cheap-audit cheap-cap cheap-cache cheap-context call-toolgroup call-baseline call-rmcp list-toolgroup list-serialised list-rmcp \
    reset-toolgroup reset-floor; do
    [[ -n "$FILTER" && "$case" != "$FILTER"* ]] && continue
    a=$(count "$case" "$N1")
    b=$(count "$case" "$N2")
    PER[$case]=$(((b - a) / (N2 - N1)))
    echo "$case: ${PER[$case]} instructions per iteration" >&2
done

ratio() {
    if [[ -n "${PER[$1]:-}" && -n "${PER[$2]:-}" ]]; then
        awk -v a="${PER[$1]}" -v b="${PER[$2]}" 'BEGIN { printf "%.2fx", a / b }'
    else
        echo "-"
    fi
}
echo
echo "| instructions per iteration | toolgroup | hand-written / floor | rmcp | ours / baseline | ours / rmcp |"
echo "|---|---:|---:|---:|---:|---:|"
echo "| cheap call | ${PER[cheap-toolgroup]:--} | ${PER[cheap-baseline]:--} | - | $(ratio cheap-toolgroup cheap-baseline) | - |"
for option in policy audit cap cache context; do
    if [[ -n "${PER[cheap-$option]:-}" ]]; then
        echo "| cheap call with $option | ${PER[cheap-$option]} | ${PER[cheap-baseline]:--} | - | $(ratio cheap-$option cheap-baseline) | - |"
    fi
done
echo "| call | ${PER[call-toolgroup]:--} | ${PER[call-baseline]:--} | ${PER[call-rmcp]:--} | $(ratio call-toolgroup call-baseline) | $(ratio call-toolgroup call-rmcp) |"
echo "| list | ${PER[list-toolgroup]:--} | - | ${PER[list-rmcp]:--} | - | $(ratio list-toolgroup list-rmcp) |"
echo "| list, without the renderer | ${PER[list-serialised]:--} | - | ${PER[list-rmcp]:--} | - | $(ratio list-serialised list-rmcp) |"
echo "| reset | ${PER[reset-toolgroup]:--} | ${PER[reset-floor]:--} | - | $(ratio reset-toolgroup reset-floor) | - |"
