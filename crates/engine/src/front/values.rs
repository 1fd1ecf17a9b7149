//! Numbers on the command line, read with a reason a user can act on: `-5` for a count is
//! "negative", not Rust's "invalid digit found in string"; `99999999999` for a 32-bit count
//! says the largest it may be. clap puts the flag and the value in front
//! ("invalid value '-5' for '--loop-ms <MS>': ...").

/// An unsigned integer type of a flag, with its largest value.
pub trait Whole: TryFrom<u128> + Copy + Send + Sync + 'static {
    const MAX: u128;
}

impl Whole for u16 {
    const MAX: u128 = u16::MAX as u128;
}
impl Whole for u32 {
    const MAX: u128 = u32::MAX as u128;
}
impl Whole for u64 {
    const MAX: u128 = u64::MAX as u128;
}
impl Whole for usize {
    const MAX: u128 = usize::MAX as u128;
}

/// A whole number from 0 to `T::MAX`.
pub fn whole<T: Whole>(v: &str) -> Result<T, String> {
    let t = v.trim();
    if t.is_empty() {
        return Err("empty: want a whole number".into());
    }
    if t.starts_with('-') && t[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.') && t.len() > 1 {
        return Err("negative: want a whole number, 0 or more".into());
    }
    if !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not a whole number".into());
    }
    let too_big = || format!("too large (at most {})", T::MAX);
    let n: u128 = t.parse().map_err(|_| too_big())?;
    T::try_from(n).map_err(|_| too_big())
}

/// A finite number (the flag's range is checked with the config).
pub fn number(v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err("not a finite number".into()),
        Err(_) if v.trim().is_empty() => Err("empty: want a number".into()),
        Err(_) => Err("not a number".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bad_number_says_why() {
        assert_eq!(whole::<u64>("-5").unwrap_err(), "negative: want a whole number, 0 or more");
        assert_eq!(whole::<u32>("4294967296").unwrap_err(), "too large (at most 4294967295)");
        assert_eq!(whole::<u64>("99999999999999999999999999999999999999999").unwrap_err(), "too large (at most 18446744073709551615)");
        assert_eq!(whole::<u32>("x").unwrap_err(), "not a whole number");
        assert_eq!(whole::<u32>("1.5").unwrap_err(), "not a whole number");
        assert_eq!(whole::<u32>("").unwrap_err(), "empty: want a whole number");
        assert_eq!(whole::<u16>("6653"), Ok(6653));
        assert_eq!(whole::<u32>(" 7 "), Ok(7));
        assert_eq!(number("nan").unwrap_err(), "not a finite number");
        assert_eq!(number("x").unwrap_err(), "not a number");
        assert_eq!(number("-1.5"), Ok(-1.5));
    }
}
