//! Numbers as people read them in messages: `1e300`, not the 301 digits
//! that `f64`'s `Display` writes, and `0`, not `-0`. Every message that
//! echoes a number from a user's file, link or option goes through
//! [`readable`].

/// `x` in the shortest form that reads back to the same number: plain
/// decimals from 0.0001 to 999 999, scientific notation outside them.
pub fn readable(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs();
    if x.is_finite() && !(1e-4..1e6).contains(&magnitude) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::readable;

    #[test]
    fn huge_tiny_and_negative_zero_read_as_people_write_them() {
        assert_eq!(readable(1e300), "1e300");
        assert_eq!(readable(-1.6666666666666668e299), "-1.6666666666666668e299");
        assert_eq!(readable(1.8446744073709552e19), "1.8446744073709552e19");
        assert_eq!(readable(2.5e-7), "2.5e-7");
        assert_eq!(readable(-0.0), "0");
        assert_eq!(readable(0.5), "0.5");
        assert_eq!(readable(100000.0), "100000");
        assert_eq!(readable(f64::INFINITY), "inf");
        assert_eq!(readable(f64::NAN), "NaN");
    }
}
