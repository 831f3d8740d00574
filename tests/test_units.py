"""Human units to SI integers: every accepted spelling, every kind of bad input."""

import math

import pytest

from pacesim.units import (
    format_rate,
    format_size,
    format_time,
    parse_rate,
    parse_size,
    parse_time,
    rounded_rate,
)


@pytest.mark.parametrize(
    "text, bps",
    [
        ("10Mbps", 10_000_000),
        ("10Mb/s", 10_000_000),
        ("10 Mbps", 10_000_000),
        ("1.5Gbps", 1_500_000_000),
        ("1Gb/s", 1_000_000_000),
        ("64kbps", 64_000),
        ("64Kbps", 64_000),
        ("64kb/s", 64_000),
        ("64Kb/s", 64_000),
        ("300bps", 300),
        ("300b/s", 300),
        ("0.5Mbps", 500_000),
    ],
)
def test_rates(text, bps):
    assert parse_rate(text) == bps


@pytest.mark.parametrize(
    "text, nbytes",
    [
        ("5KB", 5000),
        ("5kB", 5000),
        ("1040B", 1040),
        ("1.5KB", 1500),
        ("2MB", 2_000_000),
        ("1GB", 10**9),
        ("1KiB", 1024),
        ("64KiB", 65536),
        ("1MiB", 1_048_576),
        ("0B", 0),
    ],
)
def test_sizes(text, nbytes):
    assert parse_size(text) == nbytes


@pytest.mark.parametrize(
    "text, ns",
    [
        ("100ms", 100_000_000),
        ("1.5ms", 1_500_000),
        ("3s", 3_000_000_000),
        ("0.25s", 250_000_000),
        ("7us", 7_000),
        ("7\u00b5s", 7_000),
        ("7\u03bcs", 7_000),
        ("12ns", 12),
        ("0s", 0),
    ],
)
def test_times(text, ns):
    assert parse_time(text) == ns


@pytest.mark.parametrize(
    "parse, text, says",
    [
        (parse_size, "-5KB", "must not be negative"),
        (parse_rate, "-1Mbps", "must not be negative"),
        (parse_time, "10", "has no unit"),
        (parse_size, "10", "has no unit"),
        (parse_rate, "10Mbs", "unknown unit 'Mbs'"),
        (parse_size, "5kb", "unknown unit 'kb'"),
        (parse_time, "5min", "unknown unit 'min'"),
        (parse_rate, "10mbps", "unknown unit 'mbps'"),
        (parse_size, "", "expected a number and a unit"),
        (parse_time, "fast", "expected a number and a unit"),
        (parse_rate, "Mbps", "expected a number and a unit"),
        (parse_size, "1.5B", "not a whole number of B"),
        (parse_time, "0.5ns", "not a whole number of ns"),
        (parse_rate, "1.0000001kbps", "not a whole number of bps"),
        (parse_size, "5 K B", "unknown unit"),
    ],
)
def test_bad_text_is_quoted_with_the_reason_and_units(parse, text, says):
    with pytest.raises(ValueError) as e:
        parse(text)
    message = str(e.value)
    assert says in message
    assert repr(text) in message or f'"{text}' in message
    if "unit" in says or "number and a unit" in says:
        assert "accepted units:" in message


def test_accepted_units_are_listed():
    with pytest.raises(ValueError, match=r"accepted units: bps, b/s, kbps.*Gb/s"):
        parse_rate("10 furlongs")
    with pytest.raises(ValueError, match=r"accepted units: B, kB, KB.*KiB, MiB"):
        parse_size("3 pages")
    with pytest.raises(ValueError, match=r"accepted units: ns, us, .*ms, s"):
        parse_time("1 fortnight")


@pytest.mark.parametrize("parse, unit", [(parse_size, "B"), (parse_rate, "bps"), (parse_time, "ns")])
def test_bare_numbers_are_refused_with_a_hint(parse, unit):
    with pytest.raises(ValueError) as e:
        parse(5000)
    assert f'write "5000{unit}"' in str(e.value)
    with pytest.raises(ValueError):
        parse(2.5)
    with pytest.raises(ValueError):
        parse(True)
    with pytest.raises(ValueError):
        parse(None)


@pytest.mark.parametrize(
    "fmt, parse, value, text",
    [
        (format_rate, parse_rate, 10_000_000, "10Mbps"),
        (format_rate, parse_rate, 1_500_000, "1500kbps"),
        (format_rate, parse_rate, 7, "7bps"),
        (format_size, parse_size, 10_000, "10KB"),
        (format_size, parse_size, 1040, "1040B"),
        (format_size, parse_size, 0, "0B"),
        (format_time, parse_time, 100_000_000, "100ms"),
        (format_time, parse_time, 60_000_000_000, "60s"),
        (format_time, parse_time, 1_500, "1500ns"),
        (format_time, parse_time, 0, "0s"),
    ],
)
def test_format_is_exact_and_parses_back(fmt, parse, value, text):
    assert fmt(value) == text
    assert parse(text) == value


@pytest.mark.parametrize("bps, text", [(97_530_204, "97.53Mbps"), (10_000_000, "10Mbps"), (1_500_000_000, "1.5Gbps"),
                                       (123_456, "123.5kbps"), (7, "7bps"), (12_345 * 10**9, "12345Gbps")])
def test_a_rate_rounded_for_a_table_keeps_four_digits_and_no_exponent(bps, text):
    # `topology show` printed a drawn rate's exact spelling, 97530204bps, cut to "97530204b…" by its column.
    assert rounded_rate(bps) == text


@pytest.mark.parametrize("parse", [parse_rate, parse_size, parse_time])
def test_a_long_wrong_value_is_cut_in_the_message(parse):
    # review33f: a time, rate or size key given a 14 MB list echoed it whole (a 21 MB message).
    for value in (list(range(100_000)), "9" * 100_000 + "parsecs", {str(i): i for i in range(10_000)}):
        with pytest.raises(ValueError) as e:
            parse(value)
        assert len(str(e.value)) < 300, str(e.value)[:300]


@pytest.mark.parametrize("value", [math.nan, math.inf, -5, -0.5])
def test_a_number_no_unit_can_make_valid_is_not_told_to_take_one(value):
    # review-hostile33k L1: `--set core.buffer=nan` was told to write "nanB", `-5` to write "-5B".
    with pytest.raises(ValueError, match="expected a finite number, not negative, and a unit") as e:
        parse_size(value)
    assert f'"{value}B"' not in str(e.value)
