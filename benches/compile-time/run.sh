#!/usr/bin/env bash
# Compile time of the same 200 tools (20 groups of 10) written with toolgroup's macros and with
# rmcp's (`#[tool]` / `#[tool_router]`), debug profile.
#
#   bash benches/compile-time/run.sh            # RUNS=3 by default
#   RUNS=5 KEEP=1 bash benches/compile-time/run.sh
#   NTOOLS=2000 NGROUPS=200 RUNS=1 bash benches/compile-time/run.sh
#
# NTOOLS tools (default 200) in NGROUPS groups (default 20); NGROUPS must divide NTOOLS.
#
# It generates two library crates under a temporary directory (never inside the repository),
# each with its own target directory, and times with cargo, for each crate:
#   clean   a clean debug build of everything (dependencies included): `cargo clean; cargo build`
#   crate   a clean build of the generated crate alone, dependencies already built
#   edit    an incremental rebuild after editing one tool's body
# Each is run RUNS times; the medians of the wall time and of the CPU time (user + system) are
# printed as a Markdown table with ours/rmcp ratios.
# The versions are pinned by benches/Cargo.lock (copied into both crates). Check that the
# machine is idle first (`pgrep -a rustc; uptime`): the script prints the load it started with.
set -euo pipefail

RUNS=${RUNS:-3}
NTOOLS=${NTOOLS:-200}
NGROUPS=${NGROUPS:-20}
if ! [[ "$NTOOLS" =~ ^[1-9][0-9]*$ && "$NGROUPS" =~ ^[1-9][0-9]*$ ]] || ((NTOOLS % NGROUPS || NTOOLS > 10000)); then
    echo "NTOOLS and NGROUPS must be positive integers, NGROUPS dividing NTOOLS, NTOOLS at most 10000" >&2
    exit 2
fi
PER_GROUP=$((NTOOLS / NGROUPS))
# The tool whose body the incremental rebuild edits: t0105 at the default size.
EDITED=$(printf 't%04d' $((NTOOLS / 2 + 5 < NTOOLS ? NTOOLS / 2 + 5 : NTOOLS - 1)))
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/toolgroup-compile-time.XXXXXX")"
if [[ -z "${KEEP:-}" ]]; then
    trap 'rm -rf "$WORK"' EXIT
fi
unset CARGO_TARGET_DIR RUSTFLAGS CARGO_BUILD_RUSTFLAGS CARGO_INCREMENTAL

tool_doc() { echo "Find the records of kind $1 that match a query."; }
QUERY_DOC="What to look for."
LIMIT_DOC="How many records to return (default 10)."

# --- the crate with toolgroup's macros --------------------------------------------------------
gen_ours() {
    local dir="$WORK/ours"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "ct-ours"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
toolgroup = { path = "$REPO" }
EOF
    {
        echo "//! $NTOOLS tools in $NGROUPS groups, with toolgroup's macros."
        echo "use toolgroup::prelude::*;"
        for ((g = 0; g < NGROUPS; g++)); do
            local names=()
            for ((i = g * PER_GROUP; i < (g + 1) * PER_GROUP; i++)); do
                local t
                t=$(printf 't%04d' "$i")
                names+=("$t")
                cat <<EOF

/// $(tool_doc "$i")
#[tool]
pub fn $t(
    /// $QUERY_DOC
    query: String,
    /// $LIMIT_DOC
    limit: Option<u32>,
) -> String {
    format!("$t: {query} ({}) v0", limit.unwrap_or(10))
}
EOF
            done
            local list
            list=$(IFS=,; echo "${names[*]}" | sed 's/,/, /g')
            printf '\n#[tool_group(name = "g%02d", description = "Records of kinds %d to %d.", tools = [%s])]\npub struct G%02d;\n' \
                "$g" "$((g * PER_GROUP))" "$(((g + 1) * PER_GROUP - 1))" "$list" "$g"
        done
        echo
        echo "/// The toolkit."
        echo "#[toolkit]"
        echo "pub struct Kit {"
        for ((g = 0; g < NGROUPS; g++)); do printf '    pub g%02d: G%02d,\n' "$g" "$g"; done
        echo "}"
        echo
        echo "/// Build the toolkit."
        echo "pub fn toolkit() -> Toolkit<Kit> {"
        echo "    Toolkit::new(Kit {"
        for ((g = 0; g < NGROUPS; g++)); do printf '        g%02d: G%02d,\n' "$g" "$g"; done
        echo "    })"
        echo "}"
    } >"$dir/src/lib.rs"
}

# --- the crate with rmcp's macros -------------------------------------------------------------
gen_rmcp() {
    local dir="$WORK/rmcp"
    mkdir -p "$dir/src"
    local rmcp_version
    rmcp_version=$(awk '/^name = "rmcp"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$REPO/benches/Cargo.lock")
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "ct-rmcp"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
rmcp = { version = "=$rmcp_version", default-features = false, features = ["server", "macros"] }
serde = { version = "1", features = ["derive"] }
schemars = "1"
EOF
    {
        echo "//! $NTOOLS tools in $NGROUPS routers, with rmcp's macros."
        echo "use rmcp::handler::server::{tool::ToolRouter, wrapper::Parameters};"
        echo "use rmcp::{tool, tool_handler, tool_router, ServerHandler};"
        echo
        echo "/// The server."
        echo "#[derive(Clone)]"
        echo "pub struct Server;"
        for ((g = 0; g < NGROUPS; g++)); do
            local methods=""
            for ((i = g * PER_GROUP; i < (g + 1) * PER_GROUP; i++)); do
                local t T
                t=$(printf 't%04d' "$i")
                T=$(printf 'T%04d' "$i")
                cat <<EOF

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ${T}Args {
    /// $QUERY_DOC
    pub query: String,
    /// $LIMIT_DOC
    pub limit: Option<u32>,
}
EOF
                methods+="
    /// $(tool_doc "$i")
    #[tool]
    pub fn $t(&self, Parameters(${T}Args { query, limit }): Parameters<${T}Args>) -> String {
        format!(\"$t: {query} ({}) v0\", limit.unwrap_or(10))
    }
"
            done
            printf '\n#[tool_router(router = g%02d_router, vis = "pub")]\nimpl Server {%s}\n' "$g" "$methods"
        done
        echo
        echo "impl Server {"
        echo "    /// Every group's router, merged."
        echo "    pub fn router() -> ToolRouter<Self> {"
        echo "        let mut router = ToolRouter::new();"
        for ((g = 0; g < NGROUPS; g++)); do printf '        router.merge(Self::g%02d_router());\n' "$g"; done
        echo "        router"
        echo "    }"
        echo "}"
        echo
        echo "#[tool_handler(router = Self::router())]"
        echo "impl ServerHandler for Server {}"
    } >"$dir/src/lib.rs"
}

gen_ours
gen_rmcp
cp "$REPO/benches/Cargo.lock" "$WORK/ours/Cargo.lock"
cp "$REPO/benches/Cargo.lock" "$WORK/rmcp/Cargo.lock"

# Time a command: prints "WALL CPU" in seconds (CPU = user + system of cargo and the compilers
# it ran; less sensitive than wall time to other work on a shared machine).
timed() {
    local TIMEFORMAT='%R %U %S'
    local t
    t=$( { time "$@" >/dev/null 2>"$WORK/last.err"; } 2>&1 ) || { cat "$WORK/last.err" >&2; exit 1; }
    echo "$t" | awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "load before: $(uptime | sed 's/.*load average: //')" >&2
echo "rustc: $(rustc --version)" >&2
echo "work dir: $WORK" >&2

declare -A RESULT
for side in ours rmcp; do
    dir="$WORK/$side"
    pkg="ct-$side"
    # Fetch and lock outside the timings (offline after this).
    (cd "$dir" && cargo fetch --quiet)
    declare -A wall=() cpu=()
    for ((r = 1; r <= RUNS; r++)); do
        (cd "$dir" && cargo clean --quiet)
        read -r w c < <(cd "$dir" && timed cargo build --offline)
        [[ -n "${c:-}" ]] || { echo "build failed" >&2; exit 1; }
        wall[clean]+=" $w" cpu[clean]+=" $c"
        (cd "$dir" && cargo clean --quiet -p "$pkg")
        read -r w c < <(cd "$dir" && timed cargo build --offline)
        [[ -n "${c:-}" ]] || { echo "build failed" >&2; exit 1; }
        wall[crate]+=" $w" cpu[crate]+=" $c"
        # Edit one tool's body ($EDITED; t0105, in group g10, by default), differently each run.
        sed -i "s/$EDITED: {query} ({}) v[0-9]*/$EDITED: {query} ({}) v$r/" "$dir/src/lib.rs"
        read -r w c < <(cd "$dir" && timed cargo build --offline)
        [[ -n "${c:-}" ]] || { echo "build failed" >&2; exit 1; }
        wall[edit]+=" $w" cpu[edit]+=" $c"
        echo "$side run $r: load $(cut -d' ' -f1 /proc/loadavg); wall (cpu) s: clean ${wall[clean]##* } (${cpu[clean]##* }), crate ${wall[crate]##* } (${cpu[crate]##* }), edit ${wall[edit]##* } (${cpu[edit]##* })" >&2
    done
    for kind in clean crate edit; do
        # shellcheck disable=SC2086
        RESULT[$side,$kind,wall]=$(median ${wall[$kind]})
        # shellcheck disable=SC2086
        RESULT[$side,$kind,cpu]=$(median ${cpu[$kind]})
    done
    unset wall cpu
done
echo "load after: $(uptime | sed 's/.*load average: //')" >&2

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "| debug build, $NTOOLS tools in $NGROUPS groups, median of $RUNS | toolgroup wall | rmcp wall | ours / rmcp | toolgroup CPU | rmcp CPU | ours / rmcp |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for kind in clean crate edit; do
    case $kind in
        clean) label="clean build, dependencies included" ;;
        crate) label="clean build of the tools crate (dependencies built)" ;;
        edit) label="incremental rebuild after editing one tool" ;;
    esac
    ow=${RESULT[ours,$kind,wall]} rw=${RESULT[rmcp,$kind,wall]}
    oc=${RESULT[ours,$kind,cpu]} rc=${RESULT[rmcp,$kind,cpu]}
    echo "| $label | $ow s | $rw s | $(ratio "$ow" "$rw") | $oc s | $rc s | $(ratio "$oc" "$rc") |"
done
