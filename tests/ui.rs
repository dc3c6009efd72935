//! Compile-time errors of the macros, each with its expected `.stderr`.
//!
//! The `.stderr` files depend on the compiler version; every machine here has the same
//! toolchain. After a toolchain change, regenerate with `TRYBUILD=overwrite cargo test --test ui`
//! and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

#[test]
fn ui() {
    place_skill_fixtures();
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}

/// The skill folders the `skill_*` cases name. `skills = [...]` paths are relative to the
/// crate's manifest, which under trybuild is the project it generates in the target
/// directory: the fixtures are copied there (`skills/`), and three are made there rather than
/// committed: a symlink leaving its folder, and folders over the file and the byte caps.
fn place_skill_fixtures() {
    let project = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("tests/trybuild/toolgroup");
    let to = project.join("skills");
    let _ = fs::remove_dir_all(&to);
    copy_dir(Path::new("tests/ui/skills"), &to);
    let escapes = to.join("escapes");
    fs::write(project.join("outside.txt"), "outside the skill").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(project.join("outside.txt"), escapes.join("secret.txt")).unwrap();
    let big = to.join("too-big/assets");
    fs::create_dir_all(&big).unwrap();
    fs::File::create(big.join("big.bin"))
        .unwrap()
        .set_len(toolgroup::skill::MAX_TOTAL_BYTES + 1)
        .unwrap();
    let many = to.join("too-many-files/assets");
    fs::create_dir_all(&many).unwrap();
    for i in 0..toolgroup_skills_cap() {
        fs::write(many.join(format!("{i:03}.txt")), "x").unwrap();
    }
}

/// One file more than a skill may hold besides its SKILL.md.
fn toolgroup_skills_cap() -> usize {
    toolgroup::skill::MAX_FILES
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target: PathBuf = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}
