//! Quantities as a scenario writes them, for the engine's messages: the
//! shortest exact spelling in decimal units ("10KB", "100ms", "10Mbps"),
//! as the Python front writes them (python/pacesim/units.py, `format_size`,
//! `format_time`, `format_rate`; tests/test_schema.py holds the two
//! alike), so an error quotes a value in the units the user gave it and
//! nothing rewrites the message after.

/// `value` in the largest of `units` (name, factor; largest first) that
/// divides it exactly, else in `base`.
fn exact(value: u64, units: &[(&str, u64)], base: &str) -> String {
    match units.iter().find(|&&(_, factor)| value != 0 && value % factor == 0) {
        Some((name, factor)) => format!("{}{name}", value / factor),
        None => format!("{value}{base}"),
    }
}

/// A size in bytes: 10_000 -> "10KB", 1_500 -> "1500B".
pub fn size(bytes: u64) -> String {
    exact(bytes, &[("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000)], "B")
}

/// A time in ns: 100_000_000 -> "100ms", 0 -> "0s".
pub fn time(ns: u64) -> String {
    if ns == 0 {
        return "0s".into();
    }
    exact(ns, &[("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000)], "ns")
}

/// A rate in bit/s: 10_000_000 -> "10Mbps".
pub fn rate(bps: u64) -> String {
    exact(bps, &[("Gbps", 1_000_000_000), ("Mbps", 1_000_000), ("kbps", 1_000)], "bps")
}

/// `value` in the unit a schema key declares (`x-unit`: "bytes", "ns",
/// "bit/s", "packets"), as the scenario writes it; a number alone without one.
pub fn in_unit(value: u64, unit: Option<&str>) -> String {
    match unit {
        Some("bytes") => size(value),
        Some("ns") => time(value),
        Some("bit/s") => rate(value),
        Some("packets") => format!("{value} packets"),
        _ => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_exact_spelling() {
        assert_eq!([size(0), size(1_500), size(10_000), size(2_000_000_000)], ["0B", "1500B", "10KB", "2GB"]);
        assert_eq!([time(0), time(1), time(1_500_000), time(2_000_000_000)], ["0s", "1ns", "1500us", "2s"]);
        assert_eq!(
            [rate(0), rate(999), rate(10_000_000), rate(1_000)],
            ["0bps", "999bps", "10Mbps", "1kbps"]
        );
        assert_eq!(in_unit(3, Some("packets")), "3 packets");
        assert_eq!(in_unit(3, None), "3");
    }
}
