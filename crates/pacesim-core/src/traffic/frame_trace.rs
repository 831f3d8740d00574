//! Video frame-size traces: the reader (paper A Sec II drives its UDP source
//! with MPEG traces of *Star Wars* and *Jurassic Park I*).
//!
//! A trace is a text file, one frame per line, fields separated by white
//! space. The scenario's `columns` say what the fields hold, in order:
//!
//! - `frame`: the frame number (must be a whole number; otherwise unused);
//! - `type`: the frame type, a word starting with a letter (I, P, B; unused);
//! - `time_s` or `time_ms`: when the frame is sent, seconds or milliseconds;
//! - `bytes` or `bits`: the frame's size (bits are rounded up to bytes);
//! - `-`: a field to skip.
//!
//! Fields after the last named column are ignored (verbose traces append
//! quality columns), text from `#` to the end of a line is a comment, and
//! blank lines are skipped. So `1 I 12345` (a TKN-style trace at a fixed
//! frame rate) is `["frame", "type", "bytes"]` with `fps = 25`, and
//! `0 0.000 I 12345` is `["frame", "time_s", "type", "bytes"]`.
//!
//! Timing: with a time column, frame i is sent at `start + (t_i - t_0)`, and
//! times must not decrease; without, at `start + i / fps`. Times are
//! rounded to the ns. The trace loops when it ends (as ns-3's
//! `UdpTraceClient` does by default) with period `n / fps`, or for a timed
//! trace `(t_{n-1} - t_0) n / (n - 1)`: its last frame lasts the mean frame
//! interval.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sim::Time;
use crate::spec::human::{self, size};
use crate::spec::{read_file, InvalidField};

/// The largest trace file read, bytes (256 MB; video traces are a few MB):
/// it is read whole, so a bigger one, or a device such as /dev/zero, is
/// refused naming it rather than read until memory runs out. The front
/// refuses the same file as it loads the scenario (`_core.MAX_TRACE_FILE`).
pub const MAX_FILE: u64 = 256_000_000;

/// What one field of a trace line holds (see the module notes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    Frame,
    Type,
    TimeS,
    TimeMs,
    Bytes,
    Bits,
    #[serde(rename = "-")]
    Skip,
}

impl Column {
    fn name(self) -> &'static str {
        match self {
            Column::Frame => "frame",
            Column::Type => "type",
            Column::TimeS => "time_s",
            Column::TimeMs => "time_ms",
            Column::Bytes => "bytes",
            Column::Bits => "bits",
            Column::Skip => "-",
        }
    }
}

/// When a frame's packets leave (see `video`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Spacing {
    /// At the frame's own bit rate over its interval.
    #[default]
    Spread,
    /// All at the frame's time.
    Burst,
}

/// A video frame-size trace (paper A Sec II), a trace source's `trace`
/// table: `file`, one frame per line, its fields named in order by
/// `columns` ("frame", "type", "time_s" or "time_ms", "bytes" or "bits",
/// "-" to skip; later fields are ignored, `#` starts a comment). Frames are
/// sent at their times, or `fps` frames a second when there is no time
/// column, and the trace loops. `send`: "spread" a frame's packets over its
/// interval at the frame's bit rate, or "burst" them all at its time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FrameTraceSpec {
    /// The trace file, one frame per line. The Python front makes a relative
    /// path absolute, from the scenario file's directory (the working
    /// directory for a dict or a --set); here it is from the working one. A
    /// run's key holds its content, not its name.
    #[schemars(extend("x-file" = true))]
    pub file: String,
    /// What each field of a line holds, in order (frame, type, time_s or
    /// time_ms, bytes or bits, - to skip).
    pub columns: Vec<Column>,
    /// Frames a second, for a trace without a time column: a frame interval
    /// from 1 ns to the engine's longest time, 10^6 s.
    #[serde(default)]
    #[schemars(range(min = 1e-6, max = 1e9))]
    pub fps: Option<f64>,
    /// spread: a frame's packets at its bit rate over its interval; burst: all at its time.
    #[serde(default)]
    pub send: Spacing,
}

impl FrameTraceSpec {
    /// Columns name one size, at most one time, no other name twice; `fps`
    /// is given exactly when there is no time column (its bounds are its
    /// schema's, `spec::bounds`, NaN built in Rust too, `bounds::wire`).
    pub fn validate(&self, field: &str) -> Result<(), InvalidField> {
        let bad = |key: &str, message: String| InvalidField { field: format!("{field}.{key}"), message };
        let c = &self.columns;
        let count = |of: [Column; 2]| c.iter().filter(|x| of.contains(x)).count();
        if let Some(twice) = (1..c.len()).find(|&i| c[i] != Column::Skip && c[..i].contains(&c[i])) {
            return Err(bad("columns", format!("{} is named twice", c[twice].name())));
        }
        if count([Column::Bytes, Column::Bits]) != 1 {
            return Err(bad("columns", "name exactly one size column, bytes or bits".into()));
        }
        let timed = match count([Column::TimeS, Column::TimeMs]) {
            0 => false,
            1 => true,
            _ => return Err(bad("columns", "name at most one time column, time_s or time_ms".into())),
        };
        match (timed, self.fps) {
            (true, Some(_)) => {
                Err(bad("fps", "the time column sets the frame times; fps is for a trace without one".into()))
            }
            (false, None) => {
                Err(bad("fps", "required: columns has no time column (time_s or time_ms)".into()))
            }
            _ => Ok(()),
        }
    }

    /// Read (a regular file of at most [`MAX_FILE`] bytes, UTF-8) and parse
    /// the file; an error names `{field}.file`, the file and the line.
    pub fn read(&self, field: &str) -> Result<FrameTrace, InvalidField> {
        let cannot = |e: String| InvalidField {
            field: format!("{field}.file"),
            message: format!("cannot read {}: {e}", self.file),
        };
        let bytes = read_file(std::path::Path::new(&self.file), MAX_FILE).map_err(cannot)?;
        let text = String::from_utf8(bytes).map_err(|e| cannot(format!("not text (UTF-8): {e}")))?;
        FrameTrace::parse(&text, &self.columns, self.fps).map_err(|e| self.error(field, e))
    }

    /// What is wrong with the file, as an error on `{field}.file` naming it.
    pub fn error(&self, field: &str, e: FrameTraceError) -> InvalidField {
        InvalidField { field: format!("{field}.file"), message: format!("{}: {e}", self.file) }
    }
}

/// Why a trace cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FrameTraceError {
    #[error("line {0}: {1}")]
    Line(usize, String),
    #[error("{0}")]
    Whole(String),
}

/// One frame: when it is sent (ns after the trace's first frame), its
/// bytes, and the line of the file it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    pub time: Time,
    pub bytes: u64,
    pub line: usize,
}

/// A trace's frames and the period after which it repeats, ns; it holds at
/// least one byte and its period is after its last frame.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameTrace {
    pub frames: Vec<Frame>,
    pub period: Time,
}

/// One field's value: a time in (unrounded) ns, a size in bytes, or nothing used.
enum Value {
    Time(f64),
    Bytes(u64),
    Unused,
}

/// Field `text` read as `column`, or why it cannot be. The reason never
/// quotes the field: any readable file can be named as a trace, and its
/// line number places the fault (issue 33).
fn value(column: Column, text: &str) -> Result<Value, String> {
    let whole = |what: &str| match text.parse::<u64>() {
        Ok(v) => Ok(v),
        Err(_) if text.starts_with('-') && text[1..].parse::<f64>().is_ok() => {
            Err(format!("{what} is negative"))
        }
        Err(_) => Err(format!("{what} is not a whole number")),
    };
    Ok(match column {
        Column::Frame => whole("frame number").map(|_| Value::Unused)?,
        Column::Type if text.starts_with(|c: char| c.is_ascii_alphabetic()) => Value::Unused,
        Column::Type => return Err("frame type does not start with a letter (I, P, B, ...)".to_string()),
        Column::TimeS | Column::TimeMs => match text.parse::<f64>() {
            Ok(t) if t.is_finite() && t >= 0.0 => {
                Value::Time(t * if column == Column::TimeS { 1e9 } else { 1e6 })
            }
            Ok(t) if t < 0.0 => return Err("time is negative".to_string()),
            _ => return Err("time is not a number".to_string()),
        },
        Column::Bytes => Value::Bytes(whole("frame size")?),
        Column::Bits => Value::Bytes(whole("frame size")?.div_ceil(8)),
        Column::Skip => Value::Unused,
    })
}

impl FrameTrace {
    /// The frames of trace `text` laid out as `columns`, timed by their time
    /// column or by `fps` (validated by [`FrameTraceSpec::validate`]).
    pub fn parse(text: &str, columns: &[Column], fps: Option<f64>) -> Result<FrameTrace, FrameTraceError> {
        // (time in ns from the file, bytes, line) per frame.
        let mut rows: Vec<(Option<f64>, u64, usize)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let at = |message: String| FrameTraceError::Line(i + 1, message);
            let fields: Vec<&str> = line.split('#').next().unwrap_or("").split_whitespace().collect();
            if fields.is_empty() {
                continue;
            }
            if fields.len() < columns.len() {
                let names: Vec<_> = columns.iter().map(|c| c.name()).collect();
                return Err(at(format!(
                    "{} fields, expected {} ({})",
                    fields.len(),
                    columns.len(),
                    names.join(", ")
                )));
            }
            let (mut time, mut bytes) = (None, 0);
            for (&column, text) in columns.iter().zip(fields) {
                match value(column, text).map_err(at)? {
                    Value::Time(t) => match rows.last() {
                        Some(&(Some(prev), ..)) if t < prev => {
                            return Err(at(format!("time {text} is before the previous frame's")))
                        }
                        _ => time = Some(t),
                    },
                    Value::Bytes(b) => bytes = b,
                    Value::Unused => {}
                }
            }
            rows.push((time, bytes, i + 1));
        }
        let n = rows.len();
        if n == 0 {
            return Err(FrameTraceError::Whole("no frames: every line is blank or a comment".into()));
        }
        if rows.iter().all(|&(_, b, _)| b == 0) {
            return Err(FrameTraceError::Whole("every frame is empty (0 bytes)".into()));
        }
        let (times, period): (Vec<f64>, f64) = match fps {
            Some(fps) if n as f64 * 1e9 / fps < 1.0 => {
                return Err(FrameTraceError::Whole(format!("{n} frames at {fps} frames/s last under 1ns")))
            }
            Some(fps) => ((0..n).map(|i| i as f64 * 1e9 / fps).collect(), n as f64 * 1e9 / fps),
            None => {
                let t0 = rows[0].0.unwrap_or(0.0);
                let span = rows[n - 1].0.unwrap_or(0.0) - t0;
                if n < 2 || span.round() == 0.0 {
                    return Err(FrameTraceError::Whole(
                        "a timed trace needs frames at two different times to set its frame interval".into(),
                    ));
                }
                (rows.iter().map(|r| r.0.unwrap_or(0.0) - t0).collect(), span * n as f64 / (n - 1) as f64)
            }
        };
        let frames = (times.iter().zip(&rows))
            .map(|(t, r)| Frame { time: t.round() as Time, bytes: r.1, line: r.2 })
            .collect();
        Ok(FrameTrace { frames, period: period.round() as Time })
    }

    /// Mean rate over one period, bit/s.
    pub fn mean_rate(&self) -> f64 {
        self.bits() * 1e9 / self.period as f64
    }

    /// The bits of one period's frames.
    fn bits(&self) -> f64 {
        self.frames.iter().map(|f| f.bytes as f64).sum::<f64>() * 8.0
    }

    /// At most the bits the trace plays in `run` ns from its start: it loops, so run / period whole
    /// periods (rounded down), then the frames of the next begun within the run.
    pub fn bits_within(&self, run: Time) -> f64 {
        let (laps, rest) = (run / self.period, run % self.period);
        let begun = self.frames.iter().filter(|f| f.time <= rest).map(|f| f.bytes as f64 * 8.0).sum::<f64>();
        laps as f64 * self.bits() + begun
    }

    /// The trace with every frame scaled so that the mean rate is `rate`
    /// bit/s. Rounding is cumulative (frame i gets round(c_i k) - round(c_{i-1} k)
    /// bytes, c_i the bytes of frames 0..=i), so the total is exact to a byte;
    /// None if that leaves no byte at all.
    pub fn scaled_to(&self, rate: u64) -> Option<FrameTrace> {
        let k = rate as f64 / self.mean_rate();
        // Bytes of frames 0..=i (u128: frames of up to 2^64 - 1 B each) and of their scaled sizes.
        let (mut total, mut sent) = (0u128, 0u64);
        let frames: Vec<Frame> = (self.frames.iter())
            .map(|f| {
                total += u128::from(f.bytes);
                let upto = (total as f64 * k).round() as u64;
                let bytes = upto - sent;
                sent = upto;
                Frame { bytes, ..*f }
            })
            .collect();
        (sent > 0).then_some(FrameTrace { frames, period: self.period })
    }

    /// Check that link `link` of `rate` bit/s, the first the trace played
    /// from `start` crosses, can send every frame due before `end` within
    /// [start, end]: a bigger frame never leaves its host within the run,
    /// and cut into packets it would queue (or drop) without bound (issue
    /// 20: a 10^13 B frame, 5 x 10^10 packets of 200 B, ran for hours).
    pub fn check_link(&self, start: Time, end: Time, link: &str, rate: u64) -> Result<(), FrameTraceError> {
        let run = end.saturating_sub(start);
        let most = u64::try_from(u128::from(rate) * u128::from(run) / 8_000_000_000).unwrap_or(u64::MAX);
        match self.frames.iter().find(|f| f.time < run && f.bytes > most) {
            Some(f) => Err(FrameTraceError::Line(
                f.line,
                format!(
                    "a frame of {} is more than link {link} ({}) can send in the run from the source's start ({} \
                     in {})",
                    size(f.bytes),
                    human::rate(rate),
                    size(most),
                    human::time(run)
                ),
            )),
            None => Ok(()),
        }
    }

    /// The least time from an instant where frames holding bytes start to the next such instant, ns (the
    /// last one's to the next loop's first), and the most such frames starting at one instant: a frame's
    /// packets leave within its interval, so in any d ns at most (d / gap + 2) times that many frames send
    /// (those begun in them and the ones before). Review33h D1: two frames at one instant made the gap 0,
    /// and the memory guard counted every packet of the trace as a byte (9.2 GB for a 46 MB peak).
    pub fn least_gap(&self) -> (Time, u64) {
        let mut starts = self.frames.iter().filter(|f| f.bytes > 0).map(|f| f.time);
        let first = starts.next().expect("a trace holds at least one byte");
        let (mut last, mut least, mut together, mut most) = (first, Time::MAX, 1, 1);
        for t in starts {
            if t == last {
                together += 1;
            } else {
                (last, least, together) = (t, least.min(t - last), 1);
            }
            most = most.max(together);
        }
        (least.min(first + (self.period - last)), most) // the period is at or after the last frame: no overflow
    }

    /// Time from frame `i` to the next (the last one's to the next loop's first).
    pub fn interval(&self, i: usize) -> Time {
        self.frames.get(i + 1).map_or(self.period, |f| f.time) - self.frames[i].time
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Column::*;

    const MS: Time = 1_000_000;

    fn frames(t: &FrameTrace) -> Vec<(Time, u64)> {
        t.frames.iter().map(|f| (f.time, f.bytes)).collect()
    }

    fn line_error(text: &str, columns: &[Column], fps: Option<f64>) -> (usize, String) {
        match FrameTrace::parse(text, columns, fps) {
            Err(FrameTraceError::Line(line, message)) => (line, message),
            other => panic!("expected a line error, got {other:?}"),
        }
    }

    #[test]
    fn timed_trace_with_comments_blank_lines_and_extra_fields() {
        let text = "# Frame  Time[s]  Type  Size[B]\n\
                    0 0.000 I 1000   # an I frame\n\
                    \n\
                    1 0.040 P 500 38.5 40.1\r\n\
                    \t  2 0.080 B 0\n\
                    3 0.120 B 250\n";
        let t = FrameTrace::parse(text, &[Frame, TimeS, Type, Bytes], None).unwrap();
        assert_eq!(frames(&t), [(0, 1000), (40 * MS, 500), (80 * MS, 0), (120 * MS, 250)]);
        // Span 120 ms over 4 frames: the last lasts the mean interval, 40 ms.
        assert_eq!(t.period, 160 * MS);
        assert_eq!(t.interval(0), 40 * MS);
        assert_eq!(t.interval(3), 40 * MS);
        // 1750 B per 160 ms.
        assert!((t.mean_rate() - 87_500.0).abs() < 1e-6);
    }

    #[test]
    fn the_bits_played_in_a_run_count_whole_loops_then_the_frames_begun() {
        // Frames of 1000, 200 and 300 B every 40 ms: 1500 B (12,000 bits) a 120 ms period.
        let t = FrameTrace::parse("1000\n200\n300\n", &[Bytes], Some(25.0)).unwrap();
        assert_eq!(t.bits_within(0), 8000.0);
        // 250 ms: two periods, then the third's first frame.
        assert_eq!(t.bits_within(250 * MS), 32_000.0);
        // 320 ms: two periods, then the third's three frames (the last due at the run's end).
        assert_eq!(t.bits_within(320 * MS), 36_000.0);
    }

    #[test]
    fn the_least_gap_is_between_instants_and_counts_the_frames_starting_together() {
        // Frames holding bytes at 0, 0, 40 and 40 ms (one empty at 80), period 120 ms: instants 40 ms apart,
        // then 80 ms to the next loop's first, two frames each.
        let t = FrameTrace::parse("0 100\n0 5\n0.04 7\n0.04 1\n0.08 0\n", &[TimeS, Bytes], None).unwrap();
        assert_eq!(t.least_gap(), (40 * MS, 2));
        let t = FrameTrace::parse("1000\n200\n300\n", &[Bytes], Some(25.0)).unwrap();
        assert_eq!(t.least_gap(), (40 * MS, 1));
        // A frame at 10^11 s (10^20 ns) saturates its time and the period at u64::MAX: the last instant's gap
        // to the next loop's first (1 ms: the last frame lasts none) overflowed from a first instant past 0 (a
        // panic in a debug build).
        let t = FrameTrace::parse("0 0\n0.001 1000\n0.003 10\n1e11 1\n", &[TimeS, Bytes], None).unwrap();
        assert_eq!((t.period, t.frames[3].time), (u64::MAX, u64::MAX));
        assert_eq!(t.least_gap(), (MS, 1));
    }

    #[test]
    fn frame_rate_timing_times_in_ms_sizes_in_bits() {
        let t = FrameTrace::parse("1 I 1000\n2 B 200\n3 B 200\n", &[Frame, Type, Bytes], Some(25.0)).unwrap();
        assert_eq!(frames(&t), [(0, 1000), (40 * MS, 200), (80 * MS, 200)]);
        assert_eq!(t.period, 120 * MS);
        // 24 frames/s: times rounded to the ns, the period exact over the whole trace.
        let t = FrameTrace::parse("8000\n8001\n1\n", &[Bits], Some(24.0)).unwrap();
        assert_eq!(frames(&t), [(0, 1000), (41_666_667, 1001), (83_333_333, 1)]);
        assert_eq!(t.period, 125 * MS);
        // A time column starting late counts from its first frame; ms and skipped fields.
        let t = FrameTrace::parse("I 1000 x 10\nP 1040 y 20\n", &[Type, TimeMs, Skip, Bytes], None).unwrap();
        assert_eq!(frames(&t), [(0, 10), (40 * MS, 20)]);
        assert_eq!(t.period, 80 * MS);
    }

    #[test]
    fn broken_lines_are_errors_naming_the_line() {
        let cols = [Frame, TimeS, Type, Bytes];
        let head = "# header\n0 0.000 I 1000\n\n";
        let cases = [
            ("1 0.040 P", "3 fields, expected 4 (frame, time_s, type, bytes)"),
            ("1 0.040 P 12x", "frame size is not a whole number"),
            ("1 0.040 P -5", "frame size is negative"),
            ("1 0.040 P 12.5", "frame size is not a whole number"),
            ("1.5 0.040 P 12", "frame number is not a whole number"),
            ("1 abc P 12", "time is not a number"),
            ("1 -0.04 P 12", "time is negative"),
            ("1 0.040 7 12", "frame type does not start with a letter (I, P, B, ...)"),
        ];
        for (line, message) in cases {
            assert_eq!(line_error(&format!("{head}{line}\n2 0.08 B 5\n"), &cols, None), (4, message.into()));
        }
        // Time going back is an error at the line that goes back; equal times are fine.
        let text = "0 0.000 I 1\n1 0.040 B 1\n2 0.040 B 1\n# c\n3 0.039 P 1\n";
        assert_eq!(line_error(text, &cols, None), (5, "time 0.039 is before the previous frame's".into()));
    }

    #[test]
    fn traces_without_frames_bytes_or_span_are_errors() {
        let whole = |text: &str, columns: &[Column], fps| match FrameTrace::parse(text, columns, fps) {
            Err(FrameTraceError::Whole(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(whole("# nothing\n\n", &[Bytes], Some(25.0)).contains("no frames"));
        assert!(whole("0\n0\n", &[Bytes], Some(25.0)).contains("every frame is empty"));
        assert!(whole("0.0 100\n", &[TimeS, Bytes], None).contains("two different times"));
        assert!(whole("0.5 100\n0.5 100\n", &[TimeS, Bytes], None).contains("two different times"));
        assert!(whole("100\n", &[Bytes], Some(1e10)).contains("under 1ns"));
    }

    fn spec(columns: Vec<Column>, fps: Option<f64>) -> FrameTraceSpec {
        FrameTraceSpec { file: "f".into(), columns, fps, send: Spacing::Spread }
    }

    #[test]
    fn bad_columns_and_fps_name_their_field() {
        let field = |columns, fps| spec(columns, fps).validate("u.trace").map_err(|e| (e.field, e.message));
        assert_eq!(field(vec![Frame, Skip, Type, Skip, Bytes], Some(25.0)), Ok(()));
        assert_eq!(field(vec![TimeS, Bytes], None), Ok(()));
        let err = |columns, fps| field(columns, fps).unwrap_err();
        assert_eq!(
            err(vec![Frame, Frame, Bytes], Some(25.0)),
            ("u.trace.columns".into(), "frame is named twice".into())
        );
        assert!(err(vec![Frame, Type], Some(25.0)).1.contains("exactly one size column"));
        assert!(err(vec![Bits, Bytes], Some(25.0)).1.contains("exactly one size column"));
        assert!(err(vec![TimeS, TimeMs, Bytes], None).1.contains("at most one time column"));
        assert_eq!(err(vec![TimeS, Bytes], Some(25.0)).0, "u.trace.fps");
        assert!(err(vec![Bytes], None).1.starts_with("required"));
        // fps's bounds are its schema's (`spec::bounds`), NaN and infinities too (`bounds::wire`).
        for fps in [0.0, 1e-7, 2e9, f64::NAN, f64::INFINITY] {
            let at = crate::spec::bounds::past_bound(&spec(vec![Bytes], Some(fps)));
            assert_eq!(at.as_deref(), Some("fps"), "{fps}");
        }
    }

    #[test]
    fn reading_names_the_field_the_file_and_the_line() {
        let path = std::env::temp_dir().join(format!("pacesim-trace-{}.txt", std::process::id()));
        std::fs::write(&path, "# test\n100\nten\n").unwrap();
        let s = FrameTraceSpec { file: path.to_string_lossy().into(), ..spec(vec![Bytes], Some(25.0)) };
        let e = s.read("traffic.udp[2].trace").unwrap_err();
        assert_eq!(e.field, "traffic.udp[2].trace.file");
        assert_eq!(e.message, format!("{}: line 3: frame size is not a whole number", s.file));
        std::fs::write(&path, "100\n300\n").unwrap();
        assert_eq!(s.read("u").unwrap().frames[1], super::Frame { time: 40 * MS, bytes: 300, line: 2 });
        std::fs::remove_file(&path).unwrap();
        let e = s.read("u").unwrap_err();
        assert!(e.field == "u.file" && e.message.starts_with("cannot read"), "{e}");
    }

    /// A file past [`MAX_FILE`] (sparse: nothing is written) and a directory
    /// are refused naming the field, unread.
    #[test]
    fn a_file_too_big_or_not_a_file_is_not_read() {
        let path = std::env::temp_dir().join(format!("pacesim-trace-big-{}.txt", std::process::id()));
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(MAX_FILE + 1).unwrap();
        let s = FrameTraceSpec { file: path.to_string_lossy().into(), ..spec(vec![Bytes], Some(25.0)) };
        let e = s.read("traffic.udp[0].trace").unwrap_err();
        assert_eq!(e.field, "traffic.udp[0].trace.file");
        assert_eq!(e.message, format!("cannot read {}: more than {MAX_FILE} bytes: not read", s.file));
        std::fs::remove_file(&path).unwrap();
        let dir = FrameTraceSpec { file: std::env::temp_dir().to_string_lossy().into(), ..s };
        assert!(dir.read("u").unwrap_err().message.ends_with(": not a regular file"));
    }

    #[test]
    fn a_frame_the_first_link_cannot_send_in_the_run_is_named_by_its_line() {
        // 25 frames/s: 1000 B at 0, 10^13 B at 40 ms, 500 B at 80 ms.
        let t = FrameTrace::parse("# big\n1000\n\n10000000000000\n500\n", &[Bytes], Some(25.0)).unwrap();
        assert_eq!(t.frames.iter().map(|f| f.line).collect::<Vec<_>>(), [2, 4, 5]);
        // 100 Mb/s over 1 s sends 12.5 MB: not the 10^13 B frame.
        let (line, message) = match t.check_link(0, 1_000_000_000, "udp.up", 100_000_000) {
            Err(FrameTraceError::Line(line, message)) => (line, message),
            other => panic!("{other:?}"),
        };
        assert_eq!(line, 4);
        assert!(message.starts_with("a frame of 10000GB is more than link udp.up (100Mbps)"), "{message}");
        assert!(message.ends_with("(12500KB in 1s)"), "the run in its units (review36c D3): {message}");
        // A run that ends before the big frame is due, counted from the
        // source's start, plays only the first: fine.
        assert_eq!(t.check_link(5 * MS, 45 * MS, "l", 100_000_000), Ok(()));
        assert!(t.check_link(5 * MS, 46 * MS, "l", 100_000_000).is_err());
        // A frame of exactly what the link sends in the run fits: 8 x 10^13 b
        // at 10^13 b/s is 8 s.
        assert_eq!(t.check_link(0, 8_000_000_000, "l", 10_000_000_000_000), Ok(()));
        assert!(t.check_link(0, 7_999_999_999, "l", 10_000_000_000_000).is_err());
        // The largest rate and run the engine holds: no overflow.
        assert_eq!(t.check_link(0, crate::spec::MAX_TIME, "l", u64::MAX), Ok(()));
    }

    #[test]
    fn frames_past_2_to_the_64_bytes_together_keep_their_rate() {
        // Two frames of 2^63 B at 1 frame/s: 2^64 B per 2 s; once a u64 sum that wrapped to 0.
        let t = FrameTrace::parse("9223372036854775808\n9223372036854775808\n", &[Bytes], Some(1.0)).unwrap();
        assert_eq!(t.mean_rate(), 2f64.powi(64) * 8.0 / 2.0);
        assert_eq!(
            t.scaled_to(8_000).unwrap().frames.iter().map(|f| f.bytes).collect::<Vec<_>>(),
            [1000, 1000]
        );
    }

    #[test]
    fn scaling_rounds_cumulatively_and_keeps_the_timing() {
        let t = FrameTrace::parse("100\n100\n100\n", &[Bytes], Some(25.0)).unwrap();
        // 300 B per 120 ms = 20 kb/s; a third of it: 33.3, 66.7, 100 cumulative.
        let third = t.scaled_to(20_000 / 3).unwrap();
        assert_eq!(third.frames.iter().map(|f| f.bytes).collect::<Vec<_>>(), [33, 34, 33]);
        assert_eq!((third.period, third.frames[2].time), (t.period, t.frames[2].time));
        assert_eq!(t.scaled_to(40_000).unwrap().frames[0].bytes, 200);
        assert_eq!(t.scaled_to(1), None);
    }
}
