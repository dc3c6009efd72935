//! Tool name -> position: an open-addressing table built once, probed with a hash of the
//! name's length and its first and last eight bytes (tool names are short and distinct), then
//! confirmed by comparing the whole name. A general-purpose `HashMap<&str, _>` hashes every
//! byte and costs several times more on the call path.

/// Positions of names, by name.
#[derive(Debug, Clone)]
pub(crate) struct NameIndex {
    /// `slots[h & mask]`, probing linearly: `(name, position)`, or `None` for an empty slot.
    slots: Box<[Option<(&'static str, u32)>]>,
    mask: usize,
}

impl NameIndex {
    /// An index of `names` (distinct), each mapped to its position in the iterator.
    pub(crate) fn new(names: impl ExactSizeIterator<Item = &'static str>) -> Self {
        // At most a quarter full: probes are short, and a miss finds an empty slot fast.
        let size = (names.len() * 4).next_power_of_two().max(4);
        let mut slots = vec![None; size].into_boxed_slice();
        let mask = size - 1;
        for (position, name) in names.enumerate() {
            let mut i = hash(name) & mask;
            while slots[i].is_some() {
                i = (i + 1) & mask;
            }
            slots[i] = Some((name, position as u32));
        }
        NameIndex { slots, mask }
    }

    /// The position of `name`.
    #[inline]
    pub(crate) fn get(&self, name: &str) -> Option<u32> {
        let mut i = hash(name) & self.mask;
        loop {
            match self.slots[i] {
                None => return None,
                Some((n, position)) if n == name => return Some(position),
                Some(_) => i = (i + 1) & self.mask,
            }
        }
    }
}

#[inline]
fn hash(name: &str) -> usize {
    let b = name.as_bytes();
    let n = b.len();
    let (head, tail) = if n >= 8 {
        (
            u64::from_le_bytes(b[..8].try_into().expect("eight bytes")),
            u64::from_le_bytes(b[n - 8..].try_into().expect("eight bytes")),
        )
    } else {
        let mut buf = [0u8; 8];
        buf[..n].copy_from_slice(b);
        (u64::from_le_bytes(buf), 0)
    };
    let mixed = (head ^ tail.rotate_left(29) ^ (n as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> 32) as usize
}

#[cfg(test)]
mod tests {
    use super::NameIndex;

    #[test]
    fn finds_every_name_and_nothing_else() {
        let names: Vec<&'static str> = (0..1000)
            .map(|i| &*Box::leak(format!("tool_{i:04}_x").into_boxed_str()))
            .chain([
                "a",
                "b",
                "ab",
                "a_longer_name_with_a_shared_tail",
                "b_longer_name_with_a_shared_tail",
                "",
            ])
            .collect();
        let index = NameIndex::new(names.iter().copied());
        for (i, name) in names.iter().enumerate() {
            assert_eq!(index.get(name), Some(i as u32), "{name}");
        }
        for miss in [
            "tool_1000_x",
            "c",
            "tool_0001_",
            "A",
            "a_longer_name_with_a_shared_tai",
        ] {
            assert_eq!(index.get(miss), None, "{miss}");
        }
        let empty = NameIndex::new(std::iter::empty());
        assert_eq!(empty.get("x"), None);
    }
}
