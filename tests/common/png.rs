//! Reading back the PNG images the examples' `bar_chart` tool draws, to check them from the
//! outside: the signature, the chunk sequence, the header, and the pixels (whose zlib stream
//! the encoder writes in stored blocks, the only kind read here).
#![allow(dead_code)]

use base64::Engine as _;

/// A decoded 8-bit indexed-colour PNG.
#[derive(Debug)]
pub struct Png {
    pub width: u32,
    pub height: u32,
    /// The chunk types in order.
    pub chunks: Vec<String>,
    /// The palette indices, one row per entry.
    pub rows: Vec<Vec<u8>>,
}

impl Png {
    /// How many pixels of column `x`, counted up from the bottom row, have colour `index`
    /// before the first that has not (after skipping the rows below that are not `index`).
    pub fn column_run(&self, x: usize, index: u8) -> usize {
        self.rows
            .iter()
            .rev()
            .map(|row| row[x])
            .skip_while(|&p| p != index)
            .take_while(|&p| p == index)
            .count()
    }
}

/// The bytes of standard base64 text.
pub fn base64(text: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap_or_else(|e| panic!("not base64 ({e}): {text:.40}..."))
}

/// Read a PNG; panics with the reason when it is not one this module can read.
pub fn read(bytes: &[u8]) -> Png {
    assert_eq!(
        bytes.get(..8),
        Some(&b"\x89PNG\r\n\x1a\n"[..]),
        "the PNG signature"
    );
    let mut at = 8;
    let (mut chunks, mut header, mut idat) = (Vec::new(), None, Vec::new());
    while at < bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = String::from_utf8_lossy(&bytes[at + 4..at + 8]).into_owned();
        let data = &bytes[at + 8..at + 8 + len];
        match kind.as_str() {
            "IHDR" => header = Some(data.to_vec()),
            "IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        chunks.push(kind);
        at += 12 + len; // length, type, data, CRC
    }
    assert_eq!(at, bytes.len(), "the last chunk ends the file");
    let header = header.expect("an IHDR chunk");
    let width = u32::from_be_bytes(header[0..4].try_into().unwrap());
    let height = u32::from_be_bytes(header[4..8].try_into().unwrap());
    assert_eq!(
        &header[8..],
        &[8, 3, 0, 0, 0],
        "8-bit indexed colour, not interlaced"
    );
    let raw = inflate_stored(&idat);
    let stride = width as usize + 1;
    assert_eq!(
        raw.len(),
        stride * height as usize,
        "one filter byte per row"
    );
    let rows = raw
        .chunks(stride)
        .map(|row| {
            assert_eq!(row[0], 0, "unfiltered rows");
            row[1..].to_vec()
        })
        .collect();
    Png {
        width,
        height,
        chunks,
        rows,
    }
}

/// The data of a zlib stream of stored deflate blocks.
fn inflate_stored(stream: &[u8]) -> Vec<u8> {
    assert_eq!(
        (u16::from(stream[0]) << 8 | u16::from(stream[1])) % 31,
        0,
        "zlib header check"
    );
    let mut at = 2;
    let mut out = Vec::new();
    loop {
        let flags = stream[at];
        assert_eq!(flags >> 1, 0, "a stored block");
        let len = u16::from_le_bytes([stream[at + 1], stream[at + 2]]);
        let nlen = u16::from_le_bytes([stream[at + 3], stream[at + 4]]);
        assert_eq!(len, !nlen, "LEN and NLEN agree");
        out.extend_from_slice(&stream[at + 5..at + 5 + len as usize]);
        at += 5 + len as usize;
        if flags & 1 == 1 {
            break;
        }
    }
    assert_eq!(at + 4, stream.len(), "the Adler-32 ends the stream");
    out
}
