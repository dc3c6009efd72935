//! Reads and validates [Agent Skills](https://agentskills.io/specification): a folder holding
//! a `SKILL.md` (YAML frontmatter between `---` lines, then Markdown instructions) and the
//! files it refers to.
//!
//! Every check reports every problem at once, each as a [`Diagnostic`] with the file inside
//! the skill and, where there is one, the line, saying what was found and what to write.
//! [`parse_skill_md`] checks a SKILL.md text alone (no file system); [`load_skill`] reads a
//! folder; [`load_skills_dir`] reads a folder of skill folders. [`shared`] holds the rules
//! every toolgroup crate shares: the tool-name rule and the did-you-mean of its messages.
//!
//! # Rules
//!
//! - The first line is `---` (after an optional UTF-8 BOM) and the frontmatter ends at the
//!   next line that is `---`; trailing blanks and `\r` are allowed on both. A `---` inside a
//!   line (a value) is no delimiter.
//! - The frontmatter is a YAML mapping without duplicate keys, of the [`SPEC_KEYS`] and the
//!   [`HOST_KEYS`]; any other key is an error with a did-you-mean. Host keys are accepted in
//!   any shape and kept verbatim in [`Frontmatter::raw`], which is the text between the
//!   delimiters as written.
//! - `name` (required): 1-[`MAX_NAME_CHARS`] characters of `a-z`, `0-9` and `-`, not
//!   starting or ending with `-`, without `--`, without the [`RESERVED_NAME_WORDS`], equal to
//!   the folder's name.
//! - `description` (required): 1-[`MAX_DESCRIPTION_CHARS`] characters, without XML tags
//!   (`<b>`, `</x>`, `<a href="…">`), which Anthropic's platform refuses.
//! - `license`: a string; `compatibility`: 1-[`MAX_COMPATIBILITY_CHARS`] characters;
//!   `metadata`: a mapping of strings to strings; `allowed-tools`: a string of entries
//!   separated by spaces.
//! - Where a string is due, a plain (unquoted) scalar that YAML reads as something else is an
//!   error that says "quote it": what YAML 1.2's core schema resolves to null, a boolean, an
//!   integer or a float (`null`, `~`, `true`, `12`, `1.5`, `.inf`, `0x1F`), and what YAML 1.1
//!   readers such as PyYAML resolve so (`yes`, `no`, `on`, `off`, `y`, `n` in any case,
//!   `1_000`, `1:30`, `2024-01-31`). Quoted and block (`|`, `>`) scalars are strings, and so
//!   is a value tagged `!!str`.
//! - The body is not empty. Its length is not checked: [`RECOMMENDED_MAX_BODY_LINES`] is a
//!   recommendation ([`SkillMd::body_line_count`]).
//! - References in the body name a file or folder of the skill: Markdown links and images,
//!   reference definitions (`[id]: path`), and bare paths starting with one of the
//!   [`BARE_PATH_PREFIXES`] anywhere, code included. `#fragment`, `?query`, `<…>` and a title
//!   are stripped and `%XX` decoded; URLs with a scheme, `//host` and pure `#anchors` are not
//!   paths. Absolute paths and paths whose `..` leave the folder are errors.
//! - Files: the folder is walked recursively; entries whose name starts with `.` are skipped
//!   (not read, not counted, not served: `.git`, `.DS_Store`). Names must be UTF-8. A symlink
//!   is followed when its canonical target is inside the folder and is an error otherwise; a
//!   fifo, socket or device is an error. At most [`MAX_FILES`] files and [`MAX_TOTAL_BYTES`]
//!   bytes in all (SKILL.md included, read first, then in path order), the caps of the MCP
//!   skills extension (SEP-2640); past a cap the reading stops and the cap is reported once.
//! - Each [`SkillFile`] has its path relative to the folder (`/`-separated, sorted by it), its
//!   size, SHA-256, MIME type by extension ([`mime_type`]) and whether it is text
//!   ([`is_text`]).

#![warn(missing_docs, unreachable_pub)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod allowed;
mod diagnostic;
mod frontmatter;
mod links;
mod mime;
mod name;
pub mod shared;
mod skill;
mod walk;
mod yaml;

pub use allowed::unknown_allowed_tools;
pub use diagnostic::Diagnostic;
pub use frontmatter::{Frontmatter, SkillMd, parse_skill_md};
pub use links::BARE_PATH_PREFIXES;
pub use mime::{DEFAULT_MIME, MIME_TYPES, TEXT_FILE_NAMES, is_text, mime_type};
pub use name::RESERVED_NAME_WORDS;
pub use shared::did_you_mean;
pub use skill::{LoadedSkill, load_skill, load_skills_dir};
pub use walk::{SkillFile, resolve_under, sha256_hex};

/// The main file of a skill.
pub const SKILL_MD: &str = "SKILL.md";

/// At most this many files per skill, SKILL.md included (SEP-2640, the MCP skills extension).
pub const MAX_FILES: usize = 512;

/// At most this many bytes in all the files of a skill, 16 MiB (SEP-2640).
pub const MAX_TOTAL_BYTES: u64 = 16 * 1024 * 1024;

/// At most this many characters in `name`.
pub const MAX_NAME_CHARS: usize = 64;

/// At most this many characters in `description`.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// At most this many characters in `compatibility`.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// The spec recommends a body under this many lines (not checked).
pub const RECOMMENDED_MAX_BODY_LINES: usize = 500;

/// The frontmatter keys of the Agent Skills specification.
pub const SPEC_KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Keys that hosts define beyond the spec, accepted in any shape and kept verbatim in
/// [`Frontmatter::raw`] so a skill written for one host loads everywhere:
///
/// - Claude Code: `argument-hint` (the hint shown after `/name`), `disable-model-invocation`
///   (only the user invokes it), `user-invocable` (hidden from the `/` menu when false),
///   `model`, `context` (`fork` runs it in a sub-agent), `agent` (which sub-agent), `hooks`;
/// - skills published with a `version` at the top level (the spec puts it in `metadata`);
/// - `when_to_use`, which some hosts and skill collections keep apart from the description.
pub const HOST_KEYS: &[&str] = &[
    "argument-hint",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "context",
    "agent",
    "hooks",
    "version",
    "when_to_use",
];
