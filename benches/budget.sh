#!/usr/bin/env bash
# Instruction budgets: counts the instructions of the benchmarks' hottest paths under callgrind
# and fails when one exceeds its budget in budgets.txt by more than the tolerance. Counts are
# deterministic for a given toolchain and lock file, whatever the machine's load, so CI can
# check them (see ../BENCHMARKS.md, "Instruction budgets").
#
#   bash benches/budget.sh                 # check every budget
#   bash benches/budget.sh cheap-toolgroup # one case
#   TOLERANCE=2 bash benches/budget.sh     # a tighter tolerance, in percent (default 5)
#
# It builds `src/bin/budget.rs` without the default features (no rmcp, criterion or HTTP
# stack, no 1,000-tool toolkit; about a minute from clean) and counts each case as
# callgrind.sh does: two runs of N1 and N2 iterations, collection limited to the timed loop,
# the difference divided by N2 - N1. The counts are that binary's: callgrind.sh's
# `examples/profile.rs` runs the same loop bodies in a bigger binary and counts differently.
set -euo pipefail
cd "$(dirname "$0")"
FILTER=${1:-}
TOLERANCE=${TOLERANCE:-5}
BUDGETS=${BUDGETS:-budgets.txt}
N1=${N1:-1000}
N2=${N2:-6000}
OUT=${OUT:-${TMPDIR:-/tmp}/toolgroup-budget}
TARGET=${CARGO_TARGET_DIR:-target}

if ! command -v valgrind >/dev/null; then
    echo "missing: valgrind (Debian: apt-get install valgrind)" >&2
    exit 1
fi
mkdir -p "$OUT"
cargo build --quiet --locked --profile budget --no-default-features --bin budget
BIN="$TARGET/budget/budget"

count() {
    valgrind --tool=callgrind --toggle-collect='budget::timed*' \
        --callgrind-out-file="$OUT/$1.$2.out" "$BIN" "$1" "$2" </dev/null 2>&1 |
        awk '/Collected/ { print $NF }'
}

failed=0
checked=0
printf '%-18s %10s %10s %8s  %s\n' case budget counted change verdict
while read -r case budget _; do
    [[ -z "$case" || "$case" == \#* ]] && continue
    [[ -n "$FILTER" && "$case" != "$FILTER"* ]] && continue
    a=$(count "$case" "$N1")
    b=$(count "$case" "$N2")
    if [[ -z "$a" || -z "$b" ]]; then
        echo "callgrind gave no count for \`$case\` (see $OUT/$case.*.out); is it a case of src/bin/budget.rs?" >&2
        exit 1
    fi
    per=$(((b - a) / (N2 - N1)))
    checked=$((checked + 1))
    verdict=$(awk -v c="$per" -v b="$budget" -v t="$TOLERANCE" 'BEGIN {
        d = (c - b) * 100 / b
        if (d > t) v = "OVER BUDGET"
        else if (d < -t) v = "ok; below budget: lower it in benches/budgets.txt"
        else v = "ok"
        printf "%+7.1f%%  %s", d, v
    }')
    printf '%-18s %10s %10s %s\n' "$case" "$budget" "$per" "$verdict"
    if [[ "$verdict" == *"OVER BUDGET"* ]]; then
        failed=$((failed + 1))
    fi
done <"$BUDGETS"

if ((checked == 0)); then
    echo "no budget matched \`$FILTER\` in $BUDGETS" >&2
    exit 1
fi
if ((failed > 0)); then
    echo >&2
    echo "$failed case(s) over budget by more than $TOLERANCE%. Find where the instructions went:" >&2
    echo "    callgrind_annotate --auto=yes $OUT/<case>.$N2.out" >&2
    echo "or, if the cost is wanted, raise the budget in benches/budgets.txt and say why in the" >&2
    echo "commit (BENCHMARKS.md, \"Instruction budgets\")." >&2
    exit 1
fi
