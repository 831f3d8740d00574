//! Tmix connection vectors (Weigle et al., CCR 36(3) 2006; the ns-2
//! manual's Tmix chapter): one vector per TCP connection of a traced link,
//! giving when it starts, the application data units (ADUs) each end sends
//! and the times between them, and its window, round-trip time and loss.
//!
//! Two formats, told by the first record of a file (either may be read):
//!
//! - the original ("orig"): `SEQ start n x id` or `CONC start n_init n_acc
//!   x id` opens a vector; a sequential one lists `> bytes` (the initiator
//!   sends), `< bytes` (the acceptor sends) and `t us` (the time before the
//!   next ADU: after sending when the same end sends next, after receiving
//!   when the other does); a concurrent one lists each end's ADUs and
//!   times independently, `c> bytes`, `t> us`, `c< bytes`, `t< us`, each
//!   time the wait after that end's previous send.
//! - the alternate ("alt"): `S start x x id` or `C start n_init n_acc x
//!   id`, then `I send_wait recv_wait bytes` (an initiator's ADU) and
//!   `A send_wait recv_wait bytes` (an acceptor's), each ADU waiting
//!   `send_wait` us after its end's previous send or `recv_wait` us after
//!   the end last received a whole ADU; 0 bytes is the end's FIN.
//!
//! A `#` starts a comment, on a line of its own or after a record's fields
//! (the ns-2 manual's example has such comments; ns-2 ignores what follows
//! a record's fields).
//!
//! Both may carry `w init acc` (each end's receive window, bytes), `r us`
//! (the connection's minimum round-trip time, which a Tmix DelayBox adds),
//! `l fwd rev` (its loss rates, initiator to acceptor and back) and `m
//! init acc` (each end's maximum segment size). Times are microseconds.
//!
//! As ns-2 2.35 reads them (`tmix/tmix.cc`): a time of 0 before an ADU of
//! the orig format counts as 1 us (so that "send at once" stays apart from
//! "do not wait"); a vector whose last ADU is not a FIN gets one, sent by
//! the end that sent last `fin_time` after its last ADU; orig trailing
//! times become FINs of their end; an orig concurrent ADU without a time
//! of its own (a `c>` after a `c<`) waits its end's previous time again
//! (ns-2 keeps each end's last `t>` or `t<` value, 0 before the first).
//! Unlike ns-2, which skips a line it does
//! not know and stops at a malformed one, every line must be one of these
//! with exactly its fields: anything else is an error naming the file and
//! line. Start times must not decrease (ns-2 starts a late vector at once).
//!
//! A file is read only if it is a regular file of at most [`MAX_FILE`]
//! bytes whose lines have at most [`MAX_LINE`] bytes; errors quote at most
//! `QUOTE` characters of what they found.

use std::fmt;
use std::path::Path;

use crate::sim::Time;
use crate::spec::read_file;

/// The initiator (0) or the acceptor (1).
pub type End = usize;
pub const INIT: End = 0;
pub const ACC: End = 1;

/// One ADU: its size in bytes (0: the end's FIN) and its wait in us, after
/// the end's own previous send (`send_wait`) or after it last received a
/// whole ADU (`recv_wait`); ns-2 reads a nonzero `recv_wait` as "wait for
/// the other end first".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adu {
    pub send_wait: u64,
    pub recv_wait: u64,
    pub bytes: u64,
}

impl Adu {
    fn new(send_wait: u64, recv_wait: u64, bytes: u64) -> Self {
        Adu { send_wait, recv_wait, bytes }
    }

    pub fn is_fin(&self) -> bool {
        self.bytes == 0
    }
}

/// Sequential (one end at a time) or concurrent (both ends independently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Seq,
    Conc,
}

/// One connection as its vector gives it: start (us from the trace's
/// start), id, each end's receive window and segment size in bytes if
/// given, the minimum round trip (us) and the loss rates if given, and
/// each end's ADUs in order.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnVector {
    /// Line of the file where the vector starts (from 1).
    pub line: usize,
    pub kind: Kind,
    pub start: u64,
    pub id: u64,
    pub window: Option<(u64, u64)>,
    pub mss: Option<(u64, u64)>,
    /// Lines of the file of its `w` and `m` records (0: none).
    pub window_line: usize,
    pub mss_line: usize,
    pub rtt: Option<u64>,
    pub loss: Option<(f64, f64)>,
    pub init: Vec<Adu>,
    pub acc: Vec<Adu>,
}

/// The most a time in a vector may be, us (the engine's clock, `spec::MAX_TIME`).
pub const MAX_US: u64 = crate::spec::MAX_TIME / 1_000;
/// The largest ADU, bytes (1 TiB).
pub const MAX_ADU: u64 = 1 << 40;
/// The largest vectors file, bytes (256 MiB: two million connections of
/// `pacesim tmix generate`, about 116 bytes each).
pub const MAX_FILE: u64 = 256 << 20;
/// The longest line, bytes (ns-2 reads at most 100; a trailing comment
/// may make one longer).
pub const MAX_LINE: usize = 1_000;
/// The most characters of a token an error quotes.
const QUOTE: usize = 24;

/// `token` quoted for an error, cut to `QUOTE` characters.
fn quote(token: &str) -> String {
    match token.char_indices().nth(QUOTE) {
        Some((cut, _)) => format!("{:?}...", &token[..cut]),
        None => format!("{token:?}"),
    }
}

/// A file that is not a set of connection vectors: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CvecError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for CvecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

/// The format of a file, from its first record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Orig,
    Alt,
}

/// Where an orig sequential vector is: after an ADU of one end, or after a
/// time following one (ns-2's states A, B, TA, TB; a vector starts as
/// after the acceptor's time, so that either end may send first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SeqState {
    SentInit,
    SentAcc,
    AfterInit(u64),
    AfterAcc(u64),
}

/// The vector being read and what reading it needs.
struct Open {
    cv: ConnVector,
    /// Orig sequential: where it is.
    seq: SeqState,
    /// Orig concurrent: each end's last time (`t>`, `t<`; ns-2 keeps it
    /// for the end's next ADUs) and whether no ADU has followed it yet.
    conc: [(u64, bool); 2],
    /// Whether the ADU added last was the initiator's.
    last_init: bool,
    /// Orig concurrent: the kind of the vector's previous line.
    last_conc: Option<&'static str>,
}

/// Read connection vectors from `path` (either format); `fin_time` is the
/// wait, us, before the FIN added to a vector whose last ADU is not one.
pub fn read(path: &Path, fin_time: u64) -> Result<Vec<ConnVector>, CvecError> {
    let file = path.display().to_string();
    let text =
        read_file(path, MAX_FILE).map_err(|message| CvecError { file: file.clone(), line: 0, message })?;
    let text = String::from_utf8(text).map_err(|e| CvecError {
        file: file.clone(),
        line: 0,
        message: format!("not text (UTF-8): {e}; a .gz file must be decompressed first"),
    })?;
    parse(&text, &file, fin_time)
}

/// Read connection vectors from `text`, naming `file` in errors.
pub fn parse(text: &str, file: &str, fin_time: u64) -> Result<Vec<ConnVector>, CvecError> {
    let mut out = Vec::new();
    let mut format = None;
    let mut open: Option<Open> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |message: String| CvecError { file: file.to_string(), line, message };
        if raw.len() > MAX_LINE {
            return Err(err(format!("a line of {} bytes, more than {MAX_LINE}", raw.len())));
        }
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let mut tokens = content.split_whitespace();
        let kind = tokens.next().expect("a non-empty line has a token");
        let fields: Vec<&str> = tokens.collect();
        let opens = match kind {
            "SEQ" | "CONC" => Some(Format::Orig),
            "S" | "C" => Some(Format::Alt),
            _ => None,
        };
        if let Some(f) = opens {
            match format {
                None => format = Some(f),
                Some(g) if g != f => {
                    return Err(err(format!("a {} vector in a file of the other format", quote(kind))));
                }
                _ => {}
            }
            if let Some(done) = open.take() {
                out.push(close(done, fin_time, file)?);
            }
            let cv = header(kind, &fields, line).map_err(err)?;
            if let Some(prev) = out.last() {
                if cv.start < prev.start {
                    return Err(err(format!(
                        "starts at {} us, before the vector of line {} ({} us)",
                        cv.start, prev.line, prev.start
                    )));
                }
            }
            open = Some(Open {
                cv,
                seq: SeqState::AfterAcc(0),
                conc: [(0, false); 2],
                last_init: true,
                last_conc: None,
            });
            continue;
        }
        let Some(o) = open.as_mut() else {
            return Err(err(format!("{} before any vector (SEQ, CONC, S or C)", quote(kind))));
        };
        record(o, format.expect("set with the first vector"), kind, &fields, line).map_err(err)?;
    }
    if let Some(done) = open.take() {
        out.push(close(done, fin_time, file)?);
    }
    if out.is_empty() {
        return Err(CvecError { file: file.to_string(), line: 0, message: "no connection vector".into() });
    }
    Ok(out)
}

/// `fields` as exactly `n` values of `T`, or why not.
fn values<T: std::str::FromStr>(kind: &str, fields: &[&str], n: usize, what: &str) -> Result<Vec<T>, String> {
    if fields.len() != n {
        return Err(format!("{kind:?} takes {n} fields ({what}), not {}", fields.len()));
    }
    fields
        .iter()
        .map(|f| f.parse::<T>().map_err(|_| format!("{kind:?}: {} is not {what}", quote(f))))
        .collect()
}

fn header(kind: &str, fields: &[&str], line: usize) -> Result<ConnVector, String> {
    let (kind_of, n) = match kind {
        "SEQ" | "S" => (Kind::Seq, 4),
        _ => (Kind::Conc, 5),
    };
    let what = match kind_of {
        Kind::Seq => "start us, two counts and the id: whole numbers",
        Kind::Conc => "start us, the ends' ADU counts, a count and the id: whole numbers",
    };
    let v: Vec<u64> = values(kind, fields, n, what)?;
    at_most(kind, "start", v[0], MAX_US, "us")?;
    Ok(ConnVector {
        line,
        kind: kind_of,
        start: v[0],
        id: v[n - 1],
        window: None,
        mss: None,
        window_line: 0,
        mss_line: 0,
        rtt: None,
        loss: None,
        init: Vec::new(),
        acc: Vec::new(),
    })
}

/// A line within a vector.
fn record(o: &mut Open, format: Format, kind: &str, fields: &[&str], line: usize) -> Result<(), String> {
    let once = |set: bool| if set { Err(format!("a second {kind:?} line in one vector")) } else { Ok(()) };
    match kind {
        "w" => {
            once(o.cv.window.is_some())?;
            let v: Vec<u64> = values(kind, fields, 2, "the ends' windows in bytes: whole numbers")?;
            o.cv.window = Some((v[0], v[1]));
            o.cv.window_line = line;
        }
        "m" => {
            once(o.cv.mss.is_some())?;
            let v: Vec<u64> = values(kind, fields, 2, "the ends' segment sizes in bytes: whole numbers")?;
            o.cv.mss = Some((v[0], v[1]));
            o.cv.mss_line = line;
        }
        "r" => {
            once(o.cv.rtt.is_some())?;
            let v: Vec<u64> = values(kind, fields, 1, "the minimum round trip in us: a whole number")?;
            at_most(kind, "round trip", v[0], MAX_US, "us")?;
            o.cv.rtt = Some(v[0]);
        }
        "l" => {
            once(o.cv.loss.is_some())?;
            let v: Vec<f64> = values(kind, fields, 2, "the loss rates: numbers")?;
            if let Some(p) = v.iter().find(|p| !(0.0..=1.0).contains(*p)) {
                return Err(format!("\"l\": loss rate {p} is not in [0, 1]"));
            }
            o.cv.loss = Some((v[0], v[1]));
        }
        "I" | "A" if format == Format::Alt => {
            let v: Vec<u64> = values(kind, fields, 3, "send wait us, receive wait us, bytes: whole numbers")?;
            at_most(kind, "send wait", v[0], MAX_US, "us")?;
            at_most(kind, "receive wait", v[1], MAX_US, "us")?;
            at_most(kind, "size", v[2], MAX_ADU, "bytes")?;
            let init = kind == "I";
            let adu = Adu::new(v[0], v[1], v[2]);
            if init { &mut o.cv.init } else { &mut o.cv.acc }.push(adu);
            o.last_init = init;
        }
        ">" | "<" | "t" if format == Format::Orig && o.cv.kind == Kind::Seq => {
            let v: Vec<u64> = values(kind, fields, 1, "a whole number")?;
            bounded(kind, v[0])?;
            seq_record(o, kind, v[0])?;
        }
        "c>" | "c<" | "t>" | "t<" if format == Format::Orig && o.cv.kind == Kind::Conc => {
            let v: Vec<u64> = values(kind, fields, 1, "a whole number")?;
            bounded(kind, v[0])?;
            conc_record(o, kind, v[0])?;
        }
        _ => {
            let within = match (format, o.cv.kind) {
                (Format::Alt, _) => "I, A",
                (Format::Orig, Kind::Seq) => ">, <, t",
                (Format::Orig, Kind::Conc) => "c>, c<, t>, t<",
            };
            return Err(format!("unknown line {} (in this vector: w, r, l, m, {within})", quote(kind)));
        }
    }
    Ok(())
}

fn at_most(kind: &str, what: &str, value: u64, most: u64, unit: &str) -> Result<(), String> {
    if value > most {
        return Err(format!("{kind:?}: a {what} of {value} {unit} is more than {most} {unit}"));
    }
    Ok(())
}

/// An orig line's value within its bound: a time (`t`...) or an ADU's size.
fn bounded(kind: &str, value: u64) -> Result<(), String> {
    if kind.starts_with('t') {
        at_most(kind, "time", value, MAX_US, "us")
    } else {
        at_most(kind, "size", value, MAX_ADU, "bytes")
    }
}

/// The orig format's wait: 0 counts as 1 us (ns-2).
fn wait(us: u64) -> u64 {
    us.max(1)
}

fn seq_record(o: &mut Open, kind: &str, value: u64) -> Result<(), String> {
    use SeqState::*;
    match (kind, o.seq) {
        (">" | "<", SentInit | SentAcc) => {
            Err(format!("{kind:?} right after an ADU: a \"t\" line must come between"))
        }
        ("t", AfterInit(_) | AfterAcc(_)) => Err("two \"t\" lines in a row".into()),
        ("t", SentInit) => {
            o.seq = AfterInit(wait(value));
            Ok(())
        }
        ("t", SentAcc) => {
            o.seq = AfterAcc(wait(value));
            Ok(())
        }
        (_, after) => {
            let init = kind == ">";
            // A wait after this end's own ADU is a send wait, after the other's a receive wait.
            let adu = match (after, init) {
                (AfterInit(t), true) | (AfterAcc(t), false) => Adu::new(t, 0, value),
                (AfterInit(t), false) | (AfterAcc(t), true) => Adu::new(0, t, value),
                _ => unreachable!("matched above"),
            };
            if init { &mut o.cv.init } else { &mut o.cv.acc }.push(adu);
            o.last_init = init;
            o.seq = if init { SentInit } else { SentAcc };
            Ok(())
        }
    }
}

fn conc_record(o: &mut Open, kind: &str, value: u64) -> Result<(), String> {
    let kind: &'static str =
        ["c>", "c<", "t>", "t<"].into_iter().find(|k| *k == kind).expect("matched by the caller");
    if o.last_conc == Some(kind) {
        return Err(format!("two {kind:?} lines in a row"));
    }
    o.last_conc = Some(kind);
    let init = kind.ends_with('>');
    let (time, pending) = &mut o.conc[if init { INIT } else { ACC }];
    if kind.starts_with('t') {
        (*time, *pending) = (wait(value), true);
    } else {
        *pending = false;
        let adu = Adu::new(*time, 0, value);
        if init { &mut o.cv.init } else { &mut o.cv.acc }.push(adu);
        o.last_init = init;
    }
    Ok(())
}

/// The vector complete: trailing orig times become FINs, a FIN is added
/// after the last ADU if it is not one, and it has at least one ADU.
fn close(mut o: Open, fin_time: u64, file: &str) -> Result<ConnVector, CvecError> {
    match o.seq {
        SeqState::AfterInit(t) if o.cv.kind == Kind::Seq => {
            o.cv.init.push(Adu::new(t, 0, 0));
            o.last_init = true;
        }
        SeqState::AfterAcc(t) if o.cv.kind == Kind::Seq && t > 0 => {
            o.cv.acc.push(Adu::new(t, 0, 0));
            o.last_init = false;
        }
        _ => {}
    }
    for (init, (t, pending)) in [(true, o.conc[INIT]), (false, o.conc[ACC])] {
        if pending {
            if init { &mut o.cv.init } else { &mut o.cv.acc }.push(Adu::new(t, 0, 0));
            o.last_init = init;
        }
    }
    if o.cv.init.is_empty() && o.cv.acc.is_empty() {
        return Err(CvecError {
            file: file.to_string(),
            line: o.cv.line,
            message: "a vector without ADUs".into(),
        });
    }
    let last = if o.last_init { &mut o.cv.init } else { &mut o.cv.acc };
    if last.last().is_none_or(|a| !a.is_fin()) {
        last.push(Adu::new(fin_time, 0, 0));
    }
    Ok(o.cv)
}

impl ConnVector {
    /// Start time, ns.
    pub fn start_ns(&self) -> Time {
        self.start.saturating_mul(1_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIN: u64 = 1_000_000;

    fn one(text: &str) -> ConnVector {
        let mut v = parse(text, "x.cvec", FIN).unwrap();
        assert_eq!(v.len(), 1);
        v.remove(0)
    }

    fn error(text: &str) -> String {
        parse(text, "bad.cvec", FIN).unwrap_err().to_string()
    }

    #[test]
    fn alt_vectors_keep_their_adus_and_get_a_fin() {
        let text = "# comment\n\nS 2718 1 21000 700001\nw 65000 6000\nr 1200000\nl 0.000000 0.000000\n\
                    I 0 0 260\nA 0 111111 520\nA 6200000 0 0\n\
                    C 4000 2 1 7 9\nw 1 2\nI 0 0 10\nA 0 0 20\nI 5 0 30\n";
        let v = parse(text, "x.cvec", FIN).unwrap();
        assert_eq!(v.len(), 2);
        let (a, b) = (&v[0], &v[1]);
        assert_eq!((a.line, a.kind, a.start, a.id), (3, Kind::Seq, 2718, 700001));
        assert_eq!(
            (a.window, a.rtt, a.loss, a.mss),
            (Some((65000, 6000)), Some(1200000), Some((0.0, 0.0)), None)
        );
        assert_eq!(a.init, vec![Adu::new(0, 0, 260)]);
        // Its last ADU is a FIN: none added.
        assert_eq!(a.acc, vec![Adu::new(0, 111111, 520), Adu::new(6200000, 0, 0)]);
        assert_eq!((b.kind, b.start, b.id), (Kind::Conc, 4000, 9));
        // The initiator sent last: its FIN, fin_time after.
        assert_eq!(b.init, vec![Adu::new(0, 0, 10), Adu::new(5, 0, 30), Adu::new(FIN, 0, 0)]);
        assert_eq!(b.acc, vec![Adu::new(0, 0, 20)]);
    }

    #[test]
    fn orig_sequential_waits_are_send_or_receive_waits_by_who_sent_before() {
        // > 260, 0.11 s, < 520 (a receive wait: the other end sent before),
        // 2 s, < 1024 (a send wait: the acceptor itself), t 0 (1 us), > 5,
        // then a trailing time: the initiator's FIN after 6.3 s.
        let cv = one("SEQ 2718 2 21000 700001\nw 65000 6000\n> 260\nt 111111\n< 520\nt 2000000\n< 1024\nt 0\n> 5\nt 6200000\n");
        assert_eq!(cv.init, vec![Adu::new(0, 0, 260), Adu::new(0, 1, 5), Adu::new(6200000, 0, 0)]);
        assert_eq!(cv.acc, vec![Adu::new(0, 111111, 520), Adu::new(2000000, 0, 1024)]);
        // The acceptor may send first; without a trailing time the last sender gets the FIN.
        let cv = one("SEQ 0 1 2 3\n< 100\nt 10\n> 50\n");
        assert_eq!(cv.acc, vec![Adu::new(0, 0, 100)]);
        assert_eq!(cv.init, vec![Adu::new(0, 10, 50), Adu::new(FIN, 0, 0)]);
    }

    #[test]
    fn orig_concurrent_waits_are_each_ends_own() {
        let cv = one(
            "CONC 1500000 2 2 27000 800001\nc> 230\nt> 60000000\nc< 740\nt< 59000000\nc> 18\nt> 700\nc< 90\n",
        );
        assert_eq!(cv.init, vec![Adu::new(0, 0, 230), Adu::new(60000000, 0, 18), Adu::new(700, 0, 0)]);
        // The initiator's trailing time made the last ADU its FIN: the acceptor gets none.
        assert_eq!(cv.acc, vec![Adu::new(0, 0, 740), Adu::new(59000000, 0, 90)]);
    }

    #[test]
    fn an_orig_concurrent_adu_without_a_time_waits_its_ends_previous_one() {
        // ns-2 keeps the initiator's t> 5000 for its c> 300 after the c<: both texts are one vector.
        let head = "CONC 0 2 1 0 1\nw 65535 65535\nt> 5000\nc> 100\nc< 200\n";
        let (a, b) = (one(&format!("{head}c> 300\n")), one(&format!("{head}t> 5000\nc> 300\n")));
        assert_eq!(a.init, vec![Adu::new(5000, 0, 100), Adu::new(5000, 0, 300), Adu::new(FIN, 0, 0)]);
        assert_eq!((a.init, a.acc), (b.init, b.acc));
        // Before any t> of its end, the wait is 0.
        assert_eq!(one("CONC 0 1 1 0 1\nc< 7\nt> 9\nc> 8\n").acc, vec![Adu::new(0, 0, 7)]);
    }

    #[test]
    fn trailing_comments_are_comments_as_in_the_ns2_manuals_layout() {
        // Laid out as the ns-2 manual's Tmix chapter prints its orig example (comments after the fields), numbers made up.
        let text = "SEQ 7000 1 21000 700002       # starts at 7 ms and contains 1 exchange (epoch)\n\
                    w 65000 6000                  # win sz (bytes): init acc\n\
                    r 1150000                     # min RTT (microseconds)\n\
                    l 0.000000 0.000000           # loss: init->acc acc->init\n\
                    > 250                         # init sends 250 bytes\n\
                    t 50000                       # acc waits 50 ms after recv\n\
                    < 520                         # acc sends 520 bytes\n\
                    t 6300000                     # init waits 6.3 sec after send and then sends FIN\n";
        let cv = one(text);
        assert_eq!(
            (cv.start, cv.id, cv.window, cv.window_line, cv.rtt),
            (7000, 700002, Some((65000, 6000)), 2, Some(1150000))
        );
        assert_eq!(cv.init, vec![Adu::new(0, 0, 250)]);
        assert_eq!(cv.acc, vec![Adu::new(0, 50000, 520), Adu::new(6300000, 0, 0)]);
        // Text after the fields that is not a comment stays an error.
        assert!(error("S 1 2 3 4\nI 0 0 5 6\n").starts_with("bad.cvec:2: \"I\" takes 3 fields"));
    }

    #[test]
    fn long_lines_and_odd_files_are_refused_briefly() {
        // A line of NUL bytes: refused by its length, nothing of it echoed.
        let text = format!("S 1 2 3 4\n{}\n", "\0".repeat(1_000_000));
        let e = error(&text);
        assert_eq!(e, "bad.cvec:2: a line of 1000000 bytes, more than 1000");
        // A long token within the limit is quoted cut short.
        let e = error(&format!("S 1 2 3 4\n{}\n", "\0".repeat(900)));
        assert!(e.starts_with("bad.cvec:2: unknown line \"") && e.len() < 250, "{e}");
        let e = error(&format!("S 1 2 3 4\nI 0 0 {}\n", "9".repeat(900)));
        assert!(e.contains("\"... is not") && e.len() < 250, "{e}");
        for dev in ["/dev/zero", "/dev/null", "/"] {
            let e = read(Path::new(dev), FIN).unwrap_err().to_string();
            assert_eq!(e, format!("{dev}: not a regular file"));
        }
    }

    #[test]
    fn bad_lines_are_errors_naming_file_and_line() {
        let cases = [
            ("S 1 2 3 4\nI 0 0\n", "bad.cvec:2: \"I\" takes 3 fields"),
            ("S 1 2 3 4\nI 0 0 x\n", "bad.cvec:2: \"I\": \"x\" is not"),
            ("S 1 2 3 4\nI 0 0 -5\n", "bad.cvec:2: \"I\": \"-5\" is not"),
            ("S 1 2 3\nI 0 0 5\n", "bad.cvec:1: \"S\" takes 4 fields"),
            ("w 1 2\nS 1 2 3 4\n", "bad.cvec:1: \"w\" before any vector"),
            ("S 1 2 3 4\nI 0 0 5\nZ 1\n", "bad.cvec:3: unknown line \"Z\""),
            ("S 1 2 3 4\n> 5\n", "bad.cvec:2: unknown line \">\""),
            (
                "S 1 2 3 4\nI 0 0 5\nSEQ 1 2 3 4\n> 1\n",
                "bad.cvec:3: a \"SEQ\" vector in a file of the other format",
            ),
            (
                "S 5 2 3 4\nI 0 0 5\nS 4 2 3 5\nI 0 0 5\n",
                "bad.cvec:3: starts at 4 us, before the vector of line 1 (5 us)",
            ),
            ("S 1 2 3 4\nl 0.5 1.5\n", "bad.cvec:2: \"l\": loss rate 1.5 is not in [0, 1]"),
            ("S 1 2 3 4\nr 5\nr 6\n", "bad.cvec:3: a second \"r\" line"),
            ("S 1 2 3 4\nw 1 2\n", "bad.cvec:1: a vector without ADUs"),
            ("SEQ 1 2 3 4\n> 5\n> 6\n", "bad.cvec:3: \">\" right after an ADU"),
            ("SEQ 1 2 3 4\n> 5\nt 1\nt 2\n", "bad.cvec:4: two \"t\" lines in a row"),
            ("CONC 1 2 3 4 5\nt> 1\nt> 2\n", "bad.cvec:3: two \"t>\" lines in a row"),
            ("CONC 1 2 3 4 5\nc> 1\nc> 2\n", "bad.cvec:3: two \"c>\" lines in a row"),
            ("SEQ 1 2 3 4\nc> 5\n", "bad.cvec:2: unknown line \"c>\""),
            ("# only a comment\n", "bad.cvec: no connection vector"),
            (
                "S 1 2 3 4\nI 0 0 1099511627777\n",
                "bad.cvec:2: \"I\": a size of 1099511627777 bytes is more than",
            ),
            (
                "S 1000000000001 2 3 4\nI 0 0 5\n",
                "bad.cvec:1: \"S\": a start of 1000000000001 us is more than",
            ),
            ("SEQ 1 2 3 4\n> 5\nt 18446744073709551615\n", "bad.cvec:3: \"t\": a time of"),
            (
                "S 1 2 3 4\nI 0 0 5\nI 0 0 18446744073709551616\n",
                "bad.cvec:3: \"I\": \"18446744073709551616\" is not",
            ),
        ];
        for (text, want) in cases {
            let got = error(text);
            assert!(got.starts_with(want), "{text:?}: {got:?} does not start with {want:?}");
        }
    }

    #[test]
    fn a_missing_file_names_itself() {
        let e = read(Path::new("/nonexistent/x.cvec"), FIN).unwrap_err();
        assert!(e.to_string().starts_with("/nonexistent/x.cvec: "), "{e}");
    }
}
