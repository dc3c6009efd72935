#!/usr/bin/env bash
# Compile time of skills: the same toolkit of 20 groups (one tool each) built without skills
# and with one skill per group (20 skills, each a SKILL.md, a Markdown reference and a
# 4 KiB asset), debug profile, dependencies already built.
#
#   bash benches/compile-time/skills.sh            # RUNS=3 by default
#   RUNS=5 KEEP=1 bash benches/compile-time/skills.sh
#
# It generates two library crates under a temporary directory (never inside the repository)
# sharing one target directory ($CARGO_TARGET_DIR if set), and times with cargo:
#   crate   a clean build of the generated crate alone: `cargo clean -p ...; cargo build`
#   edit    the rebuild after editing one SKILL.md (the skills crate only: the embedded
#           files are `include_bytes!`, so cargo tracks them)
# and, apart, the SHA-256 the macro computes for every embedded file: the time
# `toolgroup_skills::sha256_hex` takes over 16 MiB (a skill at its cap) in the profile proc
# macros are built with (dev, opt-level 0). Medians of RUNS runs, wall and CPU (user + system).
# Check that the machine is idle first (`pgrep -a rustc; uptime`).
set -euo pipefail

RUNS=${RUNS:-3}
NGROUPS=20
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/toolgroup-skills-compile-time.XXXXXX")"
if [[ -z "${KEEP:-}" ]]; then
    trap 'rm -rf "$WORK"' EXIT
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$WORK/target}"
unset RUSTFLAGS CARGO_BUILD_RUSTFLAGS CARGO_INCREMENTAL

manifest() {
    cat <<EOF
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
toolgroup = { path = "$REPO" }
EOF
}

# One crate: 20 groups `g00`..`g19`, each with the tool `fetch_NN`; with `skills`, group NN
# also lists the skill folder `skills/skill-NN`.
gen() {
    local side=$1 dir="$WORK/$1"
    mkdir -p "$dir/src"
    manifest "ct-$side" >"$dir/Cargo.toml"
    cp "$REPO/benches/Cargo.lock" "$dir/Cargo.lock"
    {
        echo "//! $NGROUPS groups, $side."
        echo "use toolgroup::prelude::*;"
        for ((g = 0; g < NGROUPS; g++)); do
            local n
            n=$(printf '%02d' "$g")
            local skills=""
            [[ $side == skills ]] && skills=", skills = [\"skills/skill-$n\"]"
            cat <<EOF

/// Fetch a record of kind $g.
#[tool]
pub fn fetch_$n(
    /// The record's id.
    id: String,
) -> String {
    format!("$n: {id}")
}

#[tool_group(name = "g$n", description = "Records of kind $g.", tools = [fetch_$n]$skills)]
pub struct G$n;
EOF
        done
        echo
        echo "#[toolkit]"
        echo "pub struct Kit {"
        for ((g = 0; g < NGROUPS; g++)); do printf '    pub g%02d: G%02d,\n' "$g" "$g"; done
        echo "}"
    } >"$dir/src/lib.rs"
    [[ $side == skills ]] || return 0
    for ((g = 0; g < NGROUPS; g++)); do
        local n s
        n=$(printf '%02d' "$g")
        s="$dir/skills/skill-$n"
        mkdir -p "$s/references" "$s/assets"
        cat >"$s/SKILL.md" <<EOF
---
name: skill-$n
description: Look up records of kind $g. Use it when a task names a record of kind $g.
allowed-tools: fetch_$n
---
# Records of kind $g

1. Read [the field guide](references/fields.md) first.
2. Fetch each record with \`fetch_$n\`; the template is \`assets/template.bin\`.
EOF
        for ((l = 0; l < 40; l++)); do echo "- field $l of kind $g: what it holds and how to read it."; done >"$s/references/fields.md"
        head -c 4096 /dev/zero | tr '\0' 'x' >"$s/assets/template.bin"
    done
}

timed() {
    local TIMEFORMAT='%R %U %S'
    local t
    t=$( { time "$@" >/dev/null 2>"$WORK/last.err"; } 2>&1 ) || { cat "$WORK/last.err" >&2; exit 1; }
    awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' <<<"$t"
}
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

gen plain
gen skills
(cd "$WORK/plain" && cargo fetch --quiet && cargo build --offline --quiet)
(cd "$WORK/skills" && cargo build --offline --quiet)

declare -A RESULT
for side in plain skills; do
    dir="$WORK/$side"
    walls="" cpus="" ewalls="" ecpus=""
    for ((r = 1; r <= RUNS; r++)); do
        (cd "$dir" && cargo clean --quiet -p "ct-$side")
        read -r w c < <(cd "$dir" && timed cargo build --offline)
        walls+=" $w" cpus+=" $c"
        if [[ $side == skills ]]; then
            echo "- step $r: edited." >>"$dir/skills/skill-10/SKILL.md"
            read -r w c < <(cd "$dir" && timed cargo build --offline)
            ewalls+=" $w" ecpus+=" $c"
        fi
    done
    # shellcheck disable=SC2086
    RESULT[$side,crate]="$(median $walls) $(median $cpus)"
    # shellcheck disable=SC2086
    [[ -z $ewalls ]] || RESULT[$side,edit]="$(median $ewalls) $(median $ecpus)"
done

# The digest alone, in the dev profile: a binary using toolgroup-skills as the macro does.
hash="$WORK/hash"
mkdir -p "$hash/src"
cat >"$hash/Cargo.toml" <<EOF
[package]
name = "ct-hash"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
toolgroup-skills = { path = "$REPO/toolgroup-skills" }
EOF
cp "$REPO/benches/Cargo.lock" "$hash/Cargo.lock"
cat >"$hash/src/main.rs" <<'EOF'
fn main() {
    let bytes = vec![0x5au8; 16 * 1024 * 1024];
    let mut best = f64::MAX;
    for _ in 0..3 {
        let start = std::time::Instant::now();
        std::hint::black_box(toolgroup_skills::sha256_hex(std::hint::black_box(&bytes)));
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!("{best:.3}");
}
EOF
hash_secs=$(cd "$hash" && cargo run --offline --quiet)

echo
echo "| $NGROUPS groups, debug | wall (s) | CPU (s) |"
echo "|---|---:|---:|"
read -r w c <<<"${RESULT[plain,crate]}"
echo "| crate build, no skills | $w | $c |"
read -r w c <<<"${RESULT[skills,crate]}"
echo "| crate build, 20 skills (60 files) | $w | $c |"
read -r w c <<<"${RESULT[skills,edit]}"
echo "| rebuild after editing one SKILL.md | $w | $c |"
echo
echo "SHA-256 of 16 MiB (one skill at its cap), dev profile: ${hash_secs}s"
