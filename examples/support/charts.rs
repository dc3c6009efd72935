//! A `charts` group whose tool answers with an image: `bar_chart` draws the numbers it is given
//! as a PNG, made in code (offline). The `agent_loop` and `mcp_server` examples serve it beside
//! the quickstart's groups ([`Analyst`]); the quickstart itself stays as it is.
//!
//! The PNG encoder below is a few dozen lines written by hand rather than a dependency: a
//! palette image (one byte per pixel), its rows in one zlib stream of *stored* (uncompressed)
//! deflate blocks, and the CRC-32 and Adler-32 checksums the format requires. Charts of flat
//! colour are small even uncompressed (a few kilobytes), the output is the same byte for byte
//! on every machine, and the examples gain no crate to download and compile.

use toolgroup::prelude::*;

use super::agent::{Notes, Scraping, WebSearch};

/// The most values one chart draws.
pub const MAX_BARS: usize = 32;
/// The chart's height in pixels.
pub const HEIGHT: u32 = 80;
/// The empty border around the plot, in pixels.
const MARGIN: u32 = 4;
/// A bar's width in pixels.
const BAR: u32 = 10;
/// The space between two bars, in pixels.
const GAP: u32 = 4;
/// The palette: background, bar, axis.
const PALETTE: [[u8; 3]; 3] = [[255, 255, 255], [52, 101, 164], [136, 138, 133]];
const BACKGROUND: u8 = 0;
const BAR_COLOUR: u8 = 1;
const AXIS: u8 = 2;

/// The width in pixels of a chart of `bars` bars.
pub const fn width(bars: u32) -> u32 {
    2 * MARGIN + bars * BAR + bars.saturating_sub(1) * GAP
}

/// Draw a bar chart of the values, one bar per value from left to right, scaled so that the
/// largest value is the tallest bar. Answers with a PNG image.
#[tool(read_only)]
pub fn bar_chart(
    /// The bars' values, left to right: 1 to 32 numbers, none negative.
    values: Vec<f64>,
) -> Result<Image, String> {
    if values.is_empty() {
        return Err("give at least one value to draw".to_owned());
    }
    if values.len() > MAX_BARS {
        return Err(format!(
            "a chart has at most {MAX_BARS} bars; got {} values",
            values.len()
        ));
    }
    if let Some((i, v)) = values
        .iter()
        .enumerate()
        .find(|(_, v)| !v.is_finite() || **v < 0.0)
    {
        return Err(format!(
            "value {v} (index {i}) cannot be drawn: bars are finite and not negative"
        ));
    }
    let bars = u32::try_from(values.len()).expect("at most MAX_BARS values");
    let (width, tallest) = (width(bars), HEIGHT - 2 * MARGIN - 1);
    let axis = HEIGHT - MARGIN - 1;
    let max = values.iter().copied().fold(0.0, f64::max);
    let mut pixels = vec![BACKGROUND; (width * HEIGHT) as usize];
    let mut paint = |x: u32, y: u32, colour: u8| pixels[(y * width + x) as usize] = colour;
    for x in MARGIN..width - MARGIN {
        paint(x, axis, AXIS);
    }
    for (i, value) in (0..bars).zip(&values) {
        // Scaled to the tallest bar; a value above zero shows at least one pixel.
        let height = if max > 0.0 && *value > 0.0 {
            ((value / max * f64::from(tallest)).round() as u32).max(1)
        } else {
            0
        };
        let left = MARGIN + i * (BAR + GAP);
        for y in axis - height..axis {
            for x in left..left + BAR {
                paint(x, y, BAR_COLOUR);
            }
        }
    }
    Ok(Image::png(png(width, HEIGHT, &PALETTE, &pixels)))
}

/// Drawing charts.
#[tool_group(
    name = "charts",
    description = "Drawing charts as images.",
    instructions = "Charts come back as PNG images: describe what they show in words too.",
    tools = [bar_chart]
)]
pub struct Charts;

/// The quickstart's groups (`notes` always on, `web_search` and `scraping` switchable) and the
/// switchable `charts` group.
#[toolkit]
pub struct Analyst {
    /// The basic group.
    #[basic]
    pub notes: Notes,
    /// Switched by the `reset_tools` argument `web_search`.
    pub web_search: WebSearch,
    /// Switched by the `reset_tools` argument `scraping`.
    pub scraping: Scraping,
    /// Switched by the `reset_tools` argument `charts`.
    pub charts: Charts,
}

/// A toolkit over [`Analyst`].
pub fn toolkit() -> Toolkit<Analyst> {
    Toolkit::new(Analyst {
        notes: Notes,
        web_search: WebSearch,
        scraping: Scraping,
        charts: Charts,
    })
}

/// A PNG of `width` x `height` pixels, each a byte indexing `palette`, rows from the top
/// (8-bit indexed colour, no interlacing, every row unfiltered).
pub fn png(width: u32, height: u32, palette: &[[u8; 3]], pixels: &[u8]) -> Vec<u8> {
    assert_eq!(
        pixels.len(),
        width as usize * height as usize,
        "one byte per pixel"
    );
    assert!(
        (1..=256).contains(&palette.len()),
        "a palette has 1 to 256 colours"
    );
    let mut rows = Vec::with_capacity(pixels.len() + height as usize);
    for row in pixels.chunks(width as usize) {
        rows.push(0); // filter type 0: the row as is
        rows.extend_from_slice(row);
    }
    let mut header = Vec::with_capacity(13);
    header.extend(width.to_be_bytes());
    header.extend(height.to_be_bytes());
    // Bit depth 8, colour type 3 (indexed), deflate, adaptive filtering, no interlace.
    header.extend([8, 3, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"PLTE", &palette.concat());
    chunk(&mut out, b"IDAT", &zlib_stored(&rows));
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A PNG chunk: length, type, data, and the CRC-32 of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    let len = u32::try_from(data.len()).expect("a PNG chunk holds less than 4 GiB");
    out.extend(len.to_be_bytes());
    let start = out.len();
    out.extend(kind);
    out.extend(data);
    let crc = crc32(&out[start..]);
    out.extend(crc.to_be_bytes());
}

/// A zlib stream of `data` in stored deflate blocks (at most 65535 bytes each).
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    // CMF 0x78: deflate with a 32 KiB window; FLG 0x01: no dictionary, check bits making
    // 0x7801 a multiple of 31.
    let mut out = Vec::with_capacity(data.len() + data.len() / 65535 * 5 + 11);
    out.extend([0x78, 0x01]);
    let mut rest = data;
    loop {
        let n = rest.len().min(usize::from(u16::MAX));
        let last = n == rest.len();
        let len = u16::try_from(n).expect("at most u16::MAX");
        out.push(u8::from(last)); // BFINAL, and BTYPE 00: stored
        out.extend(len.to_le_bytes());
        out.extend((!len).to_le_bytes());
        out.extend(&rest[..n]);
        rest = &rest[n..];
        if last {
            break;
        }
    }
    out.extend(adler32(data).to_be_bytes());
    out
}

/// CRC-32 (ISO 3309, as PNG uses it), bit by bit: the images here are small.
fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |crc, &byte| {
        (0..8).fold(crc ^ u32::from(byte), |c, _| {
            if c & 1 == 1 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            }
        })
    })
}

/// Adler-32 (RFC 1950), zlib's checksum of the uncompressed data.
fn adler32(bytes: &[u8]) -> u32 {
    const MOD: u32 = 65_521;
    let (a, b) = bytes.iter().fold((1u32, 0u32), |(a, b), &byte| {
        let a = (a + u32::from(byte)) % MOD;
        (a, (b + a) % MOD)
    });
    (b << 16) | a
}
