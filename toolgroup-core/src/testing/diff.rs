//! A line diff for snapshot failures: the longest common subsequence of the lines between
//! the common head and tail, shown as hunks with three lines of context.

use std::fmt::Write as _;

use crate::echo::echo;

/// Lines of context around a change.
const CONTEXT: usize = 3;
/// The most diff lines shown; the rest are counted.
const MAX_LINES: usize = 160;
/// Lines longer than this are cut (a schema's one-line enum can be long).
const MAX_WIDTH: usize = 200;
/// Above this many cells the middle is shown as removed then added, unaligned.
const MAX_CELLS: usize = 4_000_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Same,
    Removed,
    Added,
}

/// `old` against `new`, line by line: `-` lines only in `old`, `+` lines only in `new`,
/// hunks headed `@@ -line +line @@` (1-based).
pub(super) fn diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let ops = align(&a, &b);
    let mut out = String::new();
    let mut shown = 0;
    let mut hidden = 0;
    // Positions in `a` and `b` of each op.
    let mut at = Vec::with_capacity(ops.len());
    let (mut i, mut j) = (0, 0);
    for &op in &ops {
        at.push((i, j));
        match op {
            Op::Same => {
                i += 1;
                j += 1;
            }
            Op::Removed => i += 1,
            Op::Added => j += 1,
        }
    }
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k] != Op::Same).collect();
    let mut k = 0;
    while k < changed.len() {
        // A hunk: changes closer than twice the context join.
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * CONTEXT {
            end = changed[k];
            k += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        let (ai, bj) = at[start];
        let header = format!("@@ -{} +{} @@", ai + 1, bj + 1);
        for op in std::iter::once(None).chain((start..end).map(Some)) {
            if shown >= MAX_LINES {
                hidden += 1;
                continue;
            }
            let line = match op {
                None => header.clone(),
                Some(p) => {
                    let (pi, pj) = at[p];
                    match ops[p] {
                        Op::Same => format!(" {}", echo(a[pi], MAX_WIDTH)),
                        Op::Removed => format!("-{}", echo(a[pi], MAX_WIDTH)),
                        Op::Added => format!("+{}", echo(b[pj], MAX_WIDTH)),
                    }
                }
            };
            out.push_str(&line);
            out.push('\n');
            shown += 1;
        }
    }
    if hidden > 0 {
        let _ = writeln!(out, "… and {hidden} more diff lines");
    }
    out
}

/// The edit script from `a` to `b`.
fn align(a: &[&str], b: &[&str]) -> Vec<Op> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops = vec![Op::Same; head];
    if ma.len().saturating_mul(mb.len()) > MAX_CELLS {
        ops.extend(std::iter::repeat_n(Op::Removed, ma.len()));
        ops.extend(std::iter::repeat_n(Op::Added, mb.len()));
    } else {
        ops.extend(lcs(ma, mb));
    }
    ops.extend(std::iter::repeat_n(Op::Same, tail));
    ops
}

/// The classic dynamic programme: `len[i][j]` is the LCS length of `a[i..]` and `b[j..]`.
fn lcs(a: &[&str], b: &[&str]) -> Vec<Op> {
    let w = b.len() + 1;
    let mut len = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            len[i * w + j] = if a[i] == b[j] {
                len[(i + 1) * w + j + 1] + 1
            } else {
                len[(i + 1) * w + j].max(len[i * w + j + 1])
            };
        }
    }
    let mut ops = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            ops.push(Op::Same);
            i += 1;
            j += 1;
        } else if len[(i + 1) * w + j] >= len[i * w + j + 1] {
            ops.push(Op::Removed);
            i += 1;
        } else {
            ops.push(Op::Added);
            j += 1;
        }
    }
    ops.extend(std::iter::repeat_n(Op::Removed, a.len() - i));
    ops.extend(std::iter::repeat_n(Op::Added, b.len() - j));
    ops
}

#[cfg(test)]
mod tests {
    use super::diff;

    #[test]
    fn shows_changed_lines_with_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
        let new = "a\nb\nc\nd\nE\nf\ng\nh\ni\nj\n";
        assert_eq!(
            diff(old, new),
            "@@ -2 +2 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n i\n+j\n"
        );
    }

    #[test]
    fn separate_hunks_and_identical_texts() {
        let old: String = (0..30).map(|n| format!("{n}\n")).collect();
        let new: String = (0..30)
            .filter(|&n| n != 25)
            .map(|n| {
                if n == 3 {
                    "three\n".to_owned()
                } else {
                    format!("{n}\n")
                }
            })
            .collect();
        let out = diff(&old, &new);
        assert_eq!(out.matches("@@").count(), 4, "{out}");
        assert!(out.starts_with("@@ -1 +1 @@\n 0\n"), "{out}");
        assert!(
            out.contains("@@ -23 +23 @@\n 22\n 23\n 24\n-25\n 26\n"),
            "{out}"
        );
        assert!(
            out.contains("-3\n+three\n") && out.contains("-25\n"),
            "{out}"
        );
        assert_eq!(diff(&old, &old), "");
    }

    #[test]
    fn caps_long_diffs() {
        let old: String = (0..500).map(|n| format!("{n}\n")).collect();
        let out = diff(&old, "");
        assert_eq!(out.lines().count(), 161);
        assert!(out.ends_with("… and 341 more diff lines\n"), "{out}");
    }
}
