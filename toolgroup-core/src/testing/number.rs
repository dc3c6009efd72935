//! Numbers for the generator: integers and numbers within their bounds (the schema's and
//! the ones a `format` such as `uint8` implies), at the bounds a sixth of the time each.
//! An error is the reason no number can be drawn.

use serde_json::{Map, Number, Value};

use super::rng::Rng;
use super::validate;

/// An integer the schema `map` allows.
pub(super) fn integer(rng: &mut Rng, map: &Map<String, Value>) -> Result<Value, &'static str> {
    let (mut lo, mut hi) = format_range(map.get("format").and_then(Value::as_str));
    let bound = |k: &str| map.get(k).and_then(Value::as_f64);
    if let Some(m) = bound("minimum") {
        lo = lo.max(ceil_i128(m));
    }
    if let Some(m) = bound("exclusiveMinimum") {
        lo = lo.max(floor_i128(m) + 1);
    }
    if let Some(m) = bound("maximum") {
        hi = hi.min(floor_i128(m));
    }
    if let Some(m) = bound("exclusiveMaximum") {
        hi = hi.min(ceil_i128(m) - 1);
    }
    let step = match map.get("multipleOf") {
        None => 1,
        Some(Value::Number(m)) => match validate::as_i128(m).filter(|m| *m > 0) {
            Some(m) => m,
            None => {
                return Err("a `multipleOf` that is not a positive integer");
            }
        },
        Some(_) => return Err("a `multipleOf` that is not a number"),
    };
    let (klo, khi) = (
        lo.div_euclid(step) + i128::from(lo.rem_euclid(step) != 0),
        hi.div_euclid(step),
    );
    if klo > khi {
        return Err("integer bounds that no integer meets");
    }
    let k = match rng.below(6) {
        0 => klo,
        1 => khi,
        2 => rng.between(-3, 3).clamp(klo, khi),
        _ => rng.between(klo, khi),
    };
    Ok(int_value(k * step))
}

/// A number the schema `map` allows: finite, and within `f32` for the `float` format.
pub(super) fn number(rng: &mut Rng, map: &Map<String, Value>) -> Result<Value, &'static str> {
    if let Some(m) = map.get("multipleOf") {
        // An integer multiple gives a number too; a fractional one would round differently
        // here and in a validator.
        return match m.as_f64() {
            Some(m) if m.fract() == 0.0 => integer(rng, map),
            _ => Err("a fractional `multipleOf`"),
        };
    }
    let limit = if map.get("format").and_then(Value::as_str) == Some("float") {
        f64::from(f32::MAX)
    } else {
        f64::MAX
    };
    let (mut lo, mut hi) = (-limit, limit);
    let bound = |k: &str| map.get(k).and_then(Value::as_f64);
    if let Some(m) = bound("minimum") {
        lo = lo.max(m);
    }
    if let Some(m) = bound("exclusiveMinimum") {
        lo = lo.max(m.next_up());
    }
    if let Some(m) = bound("maximum") {
        hi = hi.min(m);
    }
    if let Some(m) = bound("exclusiveMaximum") {
        hi = hi.min(m.next_down());
    }
    if lo > hi {
        return Err("number bounds that no number meets");
    }
    let interesting = [0.0, 0.5, -1.5, 1e-300, 123_456.789, -1e300, 1e300];
    let x = match rng.below(6) {
        0 => lo,
        1 => hi,
        2 => *rng.pick(&interesting),
        // Small numbers, most of what a tool sees.
        3 | 4 => (rng.unit() - 0.5) * 2000.0,
        _ => {
            let u = rng.unit();
            lo * (1.0 - u) + hi * u
        }
    };
    let x = x.clamp(lo, hi);
    match Number::from_f64(x) {
        Some(n) => Ok(Value::Number(n)),
        None => Err("number bounds with no finite number between them"),
    }
}

/// The range an integer `format` implies (what the Rust type behind it parses), or what a
/// JSON number `serde_json` reads as an integer holds.
fn format_range(format: Option<&str>) -> (i128, i128) {
    let (lo, hi): (i128, i128) = match format {
        Some("int8") => (i8::MIN.into(), i8::MAX.into()),
        Some("int16") => (i16::MIN.into(), i16::MAX.into()),
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        Some("int64" | "int") => (i64::MIN.into(), i64::MAX.into()),
        Some("uint8") => (0, u8::MAX.into()),
        Some("uint16") => (0, u16::MAX.into()),
        Some("uint32") => (0, u32::MAX.into()),
        Some("uint64" | "uint" | "uint128") => (0, u64::MAX.into()),
        _ => (i64::MIN.into(), u64::MAX.into()),
    };
    (lo, hi)
}

fn ceil_i128(x: f64) -> i128 {
    x.ceil().clamp(i128::MIN as f64, i128::MAX as f64) as i128
}

fn floor_i128(x: f64) -> i128 {
    x.floor().clamp(i128::MIN as f64, i128::MAX as f64) as i128
}

/// An integer as JSON (`i64` or `u64`; the callers keep it within those).
fn int_value(n: i128) -> Value {
    match (i64::try_from(n), u64::try_from(n)) {
        (Ok(n), _) => Value::from(n),
        (_, Ok(n)) => Value::from(n),
        _ => Value::from(n as f64),
    }
}
