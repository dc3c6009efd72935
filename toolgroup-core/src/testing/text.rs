//! Generated strings: plain text that mixes ASCII with other scripts, emoji and control
//! characters, and the string formats the generator knows.

use super::rng::Rng;

/// What plain text is drawn from, one pool per draw: mostly ASCII letters and digits, then
/// what breaks naive code (quotes, backslashes, markup, other scripts, combining and
/// bidirectional marks, characters outside the Basic Multilingual Plane, control characters).
const POOLS: &[&[char]] = &[
    &[
        'a', 'b', 'c', 'x', 'y', 'z', 'Q', 'R', 'S', '0', '1', '9', 'e', 'o', 'n',
    ],
    &['a', 'e', 'i', 'o', 'u', 't', 's', 'r', 'l', 'm'],
    &[
        ' ', '-', '_', '.', ',', '/', ':', '?', '&', '=', '#', '%', '+', '@',
    ],
    &['"', '\'', '\\', '`', '<', '>', '{', '}', '[', ']', '$', '*'],
    &[
        'é', 'ß', 'ø', 'Ж', 'я', 'ع', 'ש', 'ह', '日', '本', '語', '한',
    ],
    &[
        '\u{301}', '\u{200B}', '\u{200D}', '\u{202E}', '\u{FEFF}', '\u{FFFD}',
    ],
    &['🦀', '😀', '👍', '𝄞', '𐍈', '🇫'],
    &[
        '\0', '\n', '\t', '\r', '\u{1b}', '\u{7f}', '\u{85}', '\u{2028}',
    ],
];

/// Plain text of `min..=max` characters (Unicode scalar values, as JSON Schema counts
/// them); short most of the time, sometimes up to 64 characters.
pub(crate) fn text(rng: &mut Rng, min: usize, max: Option<usize>) -> String {
    let max = max.unwrap_or(usize::MAX);
    let reach = if rng.one_in(8) { 64 } else { 12 };
    let top = max.min(min.saturating_add(reach));
    let len = min + rng.index(top - min + 1);
    // A third of the strings are plain ASCII words: what most tools expect.
    let plain = rng.one_in(3);
    (0..len)
        .map(|_| {
            let pool = if plain {
                POOLS[rng.index(2)]
            } else {
                *rng.pick(POOLS)
            };
            *rng.pick(pool)
        })
        .collect()
}

/// A short ASCII word (for values of the schema `true`).
pub(crate) fn word(rng: &mut Rng) -> String {
    let len = 1 + rng.index(8);
    (0..len).map(|_| *rng.pick(POOLS[0])).collect()
}

/// A map key: text, never empty.
pub(crate) fn key(rng: &mut Rng) -> String {
    text(rng, 1, Some(16))
}

/// A valid string of the `format`, or `None` for a format the generator does not know.
pub(crate) fn formatted(rng: &mut Rng, format: &str) -> Option<String> {
    Some(match format {
        "date-time" => format!("{}T{}{}", date(rng), time(rng), offset(rng)),
        "partial-date-time" => format!("{}T{}", date(rng), time(rng)),
        "date" => date(rng),
        "time" => format!("{}{}", time(rng), offset(rng)),
        "partial-time" => time(rng),
        "uuid" => {
            let hex = |rng: &mut Rng, n: usize| -> String {
                (0..n)
                    .map(|_| char::from(b"0123456789abcdef"[rng.index(16)]))
                    .collect()
            };
            // Version 4, variant 1, as `Uuid::new_v4` makes them.
            let variant = char::from(b"89ab"[rng.index(4)]);
            format!(
                "{}-{}-4{}-{variant}{}-{}",
                hex(rng, 8),
                hex(rng, 4),
                hex(rng, 3),
                hex(rng, 3),
                hex(rng, 12)
            )
        }
        "email" => format!("{}@{}", label(rng), hostname(rng)),
        "hostname" => hostname(rng),
        "uri" => {
            let scheme = *rng.pick(&["https", "http", "urn", "mailto", "ftp"]);
            match scheme {
                "urn" => format!("urn:{}:{}", label(rng), label(rng)),
                "mailto" => format!("mailto:{}@{}", label(rng), hostname(rng)),
                _ => format!(
                    "{scheme}://{}/{}?q={}",
                    hostname(rng),
                    label(rng),
                    label(rng)
                ),
            }
        }
        "ipv4" => ipv4(rng),
        "ipv6" => ipv6(rng),
        "ip" => {
            if rng.one_in(2) {
                ipv4(rng)
            } else {
                ipv6(rng)
            }
        }
        _ => return None,
    })
}

fn date(rng: &mut Rng) -> String {
    // Days up to 28: every month has them.
    format!(
        "{:04}-{:02}-{:02}",
        rng.between(1970, 2099),
        rng.between(1, 12),
        rng.between(1, 28)
    )
}

fn time(rng: &mut Rng) -> String {
    let fraction = if rng.one_in(3) {
        format!(".{:03}", rng.between(0, 999))
    } else {
        String::new()
    };
    format!(
        "{:02}:{:02}:{:02}{fraction}",
        rng.between(0, 23),
        rng.between(0, 59),
        rng.between(0, 59)
    )
}

fn offset(rng: &mut Rng) -> String {
    if rng.one_in(2) {
        "Z".to_owned()
    } else {
        let sign = if rng.one_in(2) { '+' } else { '-' };
        format!(
            "{sign}{:02}:{:02}",
            rng.between(0, 14),
            15 * rng.between(0, 3)
        )
    }
}

/// A DNS label: lowercase letters and digits, starting with a letter.
fn label(rng: &mut Rng) -> String {
    let len = 1 + rng.index(10);
    (0..len)
        .map(|i| {
            let chars: &[u8] = if i == 0 {
                b"abcdefghijklmnopqrstuvwxyz"
            } else {
                b"abcdefghijklmnopqrstuvwxyz0123456789"
            };
            char::from(chars[rng.index(chars.len())])
        })
        .collect()
}

fn hostname(rng: &mut Rng) -> String {
    let tld = *rng.pick(&["org", "com", "net", "example", "io"]);
    format!("{}.{tld}", label(rng))
}

fn ipv4(rng: &mut Rng) -> String {
    let mut octet = || rng.between(0, 255).to_string();
    format!("{}.{}.{}.{}", octet(), octet(), octet(), octet())
}

fn ipv6(rng: &mut Rng) -> String {
    let groups: Vec<String> = (0..8)
        .map(|_| format!("{:x}", rng.between(0, 0xffff)))
        .collect();
    groups.join(":")
}
