//! MIME types by file extension: a small table rather than `mime_guess`, which maps `py` to
//! `text/plain` and `yaml` to `text/x-yaml` and brings a build script and two crates into
//! every proc-macro build.

/// The type of files whose extension is not in [`MIME_TYPES`].
pub const DEFAULT_MIME: &str = "application/octet-stream";

/// Extension (lowercase, without the dot) to MIME type. Anything else is [`DEFAULT_MIME`];
/// files named in [`TEXT_FILE_NAMES`] are `text/plain`.
pub const MIME_TYPES: &[(&str, &str)] = &[
    // Text and documents.
    ("md", "text/markdown"),
    ("markdown", "text/markdown"),
    ("txt", "text/plain"),
    ("text", "text/plain"),
    ("log", "text/plain"),
    ("rst", "text/x-rst"),
    ("html", "text/html"),
    ("htm", "text/html"),
    ("css", "text/css"),
    ("csv", "text/csv"),
    ("tsv", "text/tab-separated-values"),
    ("tex", "application/x-tex"),
    ("pdf", "application/pdf"),
    (
        "docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    (
        "xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ),
    (
        "pptx",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ),
    // Data and configuration.
    ("json", "application/json"),
    ("jsonl", "application/jsonl"),
    ("ipynb", "application/x-ipynb+json"),
    ("yaml", "application/yaml"),
    ("yml", "application/yaml"),
    ("toml", "application/toml"),
    ("xml", "application/xml"),
    ("xsd", "application/xml"),
    ("ini", "text/plain"),
    ("cfg", "text/plain"),
    ("conf", "text/plain"),
    ("env", "text/plain"),
    ("sql", "application/sql"),
    // Code.
    ("py", "text/x-python"),
    ("js", "text/javascript"),
    ("mjs", "text/javascript"),
    ("cjs", "text/javascript"),
    ("ts", "text/x-typescript"),
    ("sh", "application/x-sh"),
    ("bash", "application/x-sh"),
    ("zsh", "application/x-sh"),
    ("ps1", "text/x-powershell"),
    ("bat", "text/x-msdos-batch"),
    ("rb", "text/x-ruby"),
    ("pl", "text/x-perl"),
    ("rs", "text/x-rust"),
    ("go", "text/x-go"),
    ("java", "text/x-java"),
    ("kt", "text/x-kotlin"),
    ("swift", "text/x-swift"),
    ("c", "text/x-c"),
    ("h", "text/x-c"),
    ("cpp", "text/x-c++"),
    ("hpp", "text/x-c++"),
    ("cs", "text/x-csharp"),
    ("php", "application/x-httpd-php"),
    ("r", "text/x-r"),
    ("lua", "text/x-lua"),
    // Images, audio, video, fonts, archives.
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("svg", "image/svg+xml"),
    ("ico", "image/vnd.microsoft.icon"),
    ("bmp", "image/bmp"),
    ("mp3", "audio/mpeg"),
    ("wav", "audio/wav"),
    ("ogg", "audio/ogg"),
    ("mp4", "video/mp4"),
    ("webm", "video/webm"),
    ("ttf", "font/ttf"),
    ("otf", "font/otf"),
    ("woff", "font/woff"),
    ("woff2", "font/woff2"),
    ("zip", "application/zip"),
    ("gz", "application/gzip"),
    ("tar", "application/x-tar"),
    ("wasm", "application/wasm"),
];

/// Extension-less file names that are plain text in skills (a bundled licence, a makefile).
pub const TEXT_FILE_NAMES: &[&str] = &[
    "LICENSE",
    "LICENCE",
    "COPYING",
    "NOTICE",
    "README",
    "Makefile",
    "Dockerfile",
];

/// MIME types outside `text/*` whose content is text.
const TEXT_APPLICATION_TYPES: &[&str] = &[
    "application/json",
    "application/jsonl",
    "application/yaml",
    "application/toml",
    "application/xml",
    "application/javascript",
    "application/x-sh",
    "application/sql",
    "application/x-tex",
    "application/x-httpd-php",
    "image/svg+xml",
];

/// The MIME type of a `/`-separated path, by its extension (case-insensitive).
pub fn mime_type(path: &str) -> &'static str {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    if TEXT_FILE_NAMES.contains(&file_name) {
        return "text/plain";
    }
    let Some((stem, extension)) = file_name.rsplit_once('.') else {
        return DEFAULT_MIME;
    };
    if stem.is_empty() {
        return DEFAULT_MIME;
    }
    let extension = extension.to_ascii_lowercase();
    MIME_TYPES
        .iter()
        .find(|(e, _)| *e == extension)
        .map_or(DEFAULT_MIME, |(_, mime)| mime)
}

/// Whether a file is text: its bytes are UTF-8 and its type is `text/*`, a `+json`/`+xml`
/// type or one of the text-like application types (JSON, YAML, TOML, XML, JavaScript, shell,
/// SQL, TeX, PHP, SVG).
pub fn is_text(mime: &str, bytes: &[u8]) -> bool {
    let text_type = mime.starts_with("text/")
        || mime.ends_with("+json")
        || mime.ends_with("+xml")
        || TEXT_APPLICATION_TYPES.contains(&mime);
    text_type && std::str::from_utf8(bytes).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_by_extension() {
        assert_eq!(mime_type("SKILL.md"), "text/markdown");
        assert_eq!(mime_type("notes.txt"), "text/plain");
        assert_eq!(mime_type("assets/logo.PNG"), "image/png");
        assert_eq!(mime_type("scripts/fill.py"), "text/x-python");
        assert_eq!(mime_type("data/x.json"), "application/json");
        assert_eq!(mime_type("a/b.unknownext"), DEFAULT_MIME);
        assert_eq!(mime_type("noext"), DEFAULT_MIME);
        assert_eq!(mime_type("dir.v2/noext"), DEFAULT_MIME);
        assert_eq!(mime_type("LICENSE"), "text/plain");
    }

    #[test]
    fn text_needs_a_text_type_and_utf8() {
        assert!(is_text("text/markdown", b"# hi"));
        assert!(is_text("application/json", b"{}"));
        assert!(is_text("application/x-ipynb+json", b"{}"));
        assert!(!is_text("text/plain", &[0xff, 0xfe]));
        assert!(!is_text("image/png", b"abc"));
        assert!(!is_text(DEFAULT_MIME, b"abc"));
    }

    #[test]
    fn table_is_lowercase_without_duplicates() {
        for (i, (extension, _)) in MIME_TYPES.iter().enumerate() {
            assert_eq!(*extension, extension.to_ascii_lowercase());
            assert!(
                !MIME_TYPES[..i].iter().any(|(e, _)| e == extension),
                "{extension}"
            );
        }
    }
}
