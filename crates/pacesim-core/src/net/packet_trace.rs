//! Packet traces in ns-2's format: every enqueue (`+`), dequeue (`-`),
//! drop (`d`) and receive (`r`) at chosen links, one line each, as ns-2
//! 2.35's `Trace::format` writes them for `$ns trace-queue` / `trace-all`
//! (trace/trace.cc, without `show_tcphdr_`):
//!
//! `+ 1.084264 4 2 tcp 1040 ------- 0 4.0 6.0 3 17`
//!
//! event, time in seconds (rounded to the microsecond, `%.15g`), the
//! link's from and to node, type (`tcp` data, `ack`, `cbr` for UDP), size
//! on the wire in bytes, ns-2's seven flag characters, flow id, source
//! and destination as `node.port` (one agent per host, port 0), sequence
//! number (packets; an ACK's is the highest in-order sequence
//! received, as TCPSink sets it; UDP datagrams carry 0) and the packet's
//! unique id (ns-2's `uid_`: packets numbered in creation order from 0).
//! Of the flags only ns-2's TCP's "congestion action" `A` is set: on the
//! first data packet a flow creates after each window cut (a fast
//! retransmit or a timeout, ns-2's `slowdown` setting `cong_action_`, sent
//! on retransmissions too as `SetCWRonRetransmit_` is true by default).
//!
//! A link knows a packet's whole passage when it admits it (see
//! [`super::link`]): the `+` at the offer, then the `-` when its
//! transmission starts and the `r` when its last bit reaches the far end,
//! or a `d` at the offer. A link whose queue holds its packets (a
//! drop-head queue, `Link::holds`) knows less: its `+` and `d`s (of the
//! arrival, or of the packet at the head) are recorded at the arrival, the
//! `-` and `r` when the packet is let go. Lines are therefore recorded ahead of the clock
//! and held until the simulation passes their time, then written in time
//! order, equal times in the order they were recorded (ns-2 writes equal
//! times in the order its events run; over the small E-base of
//! bench/ns2/TRACE_DIFF.md the two orders agree). Lines at or after the end of the run are not
//! written (ns-2 stops at `finish`, scheduled at the end).
//!
//! Size: a trace is capped at `max_bytes` of lines (default
//! [`DEFAULT_MAX_BYTES`], 1 GiB; a line is some 60 B, so about 18 million
//! lines). A line that would pass the cap is not written, nor any after it:
//! the file ends at a whole line, and the run's report warns of the time the
//! trace stopped (`Report::warnings`). How many packets a run carries is
//! known only by running it, so the cap is not checked up front.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufWriter, Write};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Packet, PacketId, PacketKind};
use crate::sim::Time;
use crate::spec::{bad, first_repeat, InvalidField};

/// A packet trace in ns-2's format (docs/trace.md), `[trace]`: every
/// enqueue `+`, dequeue `-`, drop `d` and receive `r` at the links `links`,
/// written to `file`, or to `file` as pcap (the packets leaving those links,
/// with synthesised IPv4 and TCP/UDP headers) when it ends in `.pcap`. A
/// traced run runs on one thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PacketTraceSpec {
    /// The traced links, by name (`core`, `edge_in.0`, ...; `pacesim
    /// topology show` lists them), each at most once.
    #[serde(default = "PacketTraceSpec::default_links")]
    pub links: Vec<String>,
    /// The trace file (created or truncated), from the current directory;
    /// `pacesim run --trace FILE` and `run(trace=FILE)` set it. Required to
    /// run, not to describe the network.
    #[serde(default)]
    pub file: Option<String>,
    /// The most bytes of lines the trace may write (absent: 1 GiB, about 18
    /// million lines): at it the trace stops on a whole line and the run's
    /// report warns when; the run itself goes on.
    #[serde(default)]
    #[schemars(extend("x-unit" = "bytes"), range(min = 1))]
    pub max_bytes: Option<u64>,
}

/// A trace's size cap unless `[trace] max_bytes` sets one: 1 GiB.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

impl PacketTraceSpec {
    /// The core link alone.
    fn default_links() -> Vec<String> {
        vec!["core".into()]
    }

    /// The traced links by id, given each link name's id; an unknown or
    /// repeated name is an error naming `trace.links[i]`.
    pub fn link_ids(&self, id_of: impl Fn(&str) -> Option<u32>) -> Result<Vec<u32>, InvalidField> {
        if self.links.is_empty() {
            return Err(bad("trace.links", "name at least one link to trace"));
        }
        let ids = (self.links.iter().enumerate())
            .map(|(i, name)| {
                id_of(name)
                    .ok_or_else(|| bad(&format!("trace.links[{i}]"), format!("no link named {name:?}")))
            })
            .collect::<Result<Vec<u32>, _>>()?;
        match first_repeat(&ids) {
            Some((i, _)) => {
                Err(bad(&format!("trace.links[{i}]"), format!("{:?} is named twice", self.links[i])))
            }
            None => Ok(ids),
        }
    }
}

/// One trace line before formatting; ordered by time, then by the order
/// it was recorded in (`order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Line {
    at: Time,
    order: u64,
    event: u8,
    link: u32,
    kind: u8,
    size: u32,
    flow: u32,
    seq: i64,
    uid: u64,
    /// ns-2's congestion action flag `A`.
    cut: bool,
}

/// Where the ends of links and flows are, for the trace's node numbers:
/// nodes are numbered as the network's (routers, then hosts).
pub struct TraceNodes {
    /// Every link's (from, to) node.
    pub links: Vec<(u32, u32)>,
    /// Every TCP flow's (sender, receiver) host.
    pub flows: Vec<(u32, u32)>,
    /// Every UDP source's (sender, receiver) host.
    pub sources: Vec<(u32, u32)>,
}

/// Writing an output file failed (a full disk, an I/O fault): the work
/// failed, where an [`InvalidField`] says the scenario cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("writing {file:?} failed: {error}")]
pub struct WriteFailed {
    pub file: String,
    #[source]
    pub error: std::io::Error,
}

/// Records the traced links' events and writes them in time order.
pub struct PacketTrace {
    nodes: TraceNodes,
    /// Each live packet's unique id and congestion action flag, by arena slot.
    uids: Vec<(u64, bool)>,
    /// Each TCP flow's window cuts when it last created a data packet.
    cuts: Vec<u64>,
    pending: BinaryHeap<Reverse<Line>>,
    recorded: u64,
    out: BufWriter<File>,
    file: String,
    /// The first write error; reported when the trace is finished.
    failed: Option<std::io::Error>,
    /// Bytes written so far, and the most that may be.
    written: u64,
    max_bytes: u64,
    /// The time of the first line not written, past `max_bytes`.
    stopped: Option<Time>,
}

impl PacketTrace {
    /// Create (or truncate) `spec.file`; an error names `trace.file`.
    pub fn create(spec: &PacketTraceSpec, nodes: TraceNodes) -> Result<Self, InvalidField> {
        let file = match spec.file.as_deref() {
            None | Some("") => return Err(bad("trace.file", "required: the file to write the trace to")),
            Some(f) => f,
        };
        let out =
            File::create(file).map_err(|e| bad("trace.file", format!("cannot create {file:?}: {e}")))?;
        Ok(PacketTrace {
            cuts: vec![0; nodes.flows.len()],
            nodes,
            uids: Vec::new(),
            pending: BinaryHeap::new(),
            recorded: 0,
            out: BufWriter::new(out),
            file: file.to_string(),
            failed: None,
            written: 0,
            max_bytes: spec.max_bytes.unwrap_or(DEFAULT_MAX_BYTES),
            stopped: None,
        })
    }

    /// Packet `id` was created as the `uid`-th packet of the run (from 0);
    /// for a data packet, its flow had cut its window `cuts` times so far.
    pub fn created(&mut self, id: PacketId, uid: u64, p: &Packet, cuts: u64) {
        let i = id as usize;
        if i >= self.uids.len() {
            self.uids.resize(i + 1, (0, false));
        }
        let mut cut = false;
        if p.kind == PacketKind::Data {
            let seen = &mut self.cuts[p.flow as usize];
            cut = cuts > *seen;
            *seen = cuts;
        }
        self.uids[i] = (uid, cut);
    }

    /// Packet `id` (`p`) was offered to traced link `link` at `at`, with
    /// the clock at `now` (<= `at`): dropped, or with its transmission
    /// starting at `start` and its last bit at the far end at `arrives`.
    pub fn offered(
        &mut self,
        now: Time,
        link: u32,
        id: PacketId,
        p: &Packet,
        at: Time,
        passage: Option<[Time; 2]>,
    ) {
        self.event(now, link, id, p, at, b'+');
        match passage {
            None => self.event(now, link, id, p, at, b'd'),
            Some([start, arrives]) => {
                self.event(now, link, id, p, start, b'-');
                self.event(now, link, id, p, arrives, b'r');
            }
        }
    }

    /// Packet `id` (`p`) has the line `event` (`+`, `-`, `d` or `r`) at
    /// traced link `link` at `at`, with the clock at `now` (<= `at`).
    pub fn event(&mut self, now: Time, link: u32, id: PacketId, p: &Packet, at: Time, event: u8) {
        self.write_before(now);
        if self.stopped.is_some() {
            return;
        }
        let (uid, cut) = self.uids[id as usize];
        let kind = p.kind as u8;
        let (size, flow, seq) = (p.size, p.flow, p.seq);
        let line = Line { at, order: self.recorded, event, link, kind, size, flow, seq, uid, cut };
        self.recorded += 1;
        self.pending.push(Reverse(line));
    }

    /// Write the lines before `end` still held, and flush; the first write
    /// error, if any, naming the file (the work failed: the scenario was
    /// good). A warning if the trace stopped at its cap.
    pub fn finish(mut self, end: Time) -> Result<Option<String>, WriteFailed> {
        self.write_before(end);
        if let Err(e) = self.out.flush() {
            self.failed.get_or_insert(e);
        }
        if let Some(error) = self.failed {
            return Err(WriteFailed { file: self.file, error });
        }
        Ok(self.stopped.map(|t| {
            format!(
                "trace: {:?} stopped at {} s, at its cap of {} B (trace.max_bytes): nothing after is written",
                self.file,
                seconds(t),
                self.max_bytes
            )
        }))
    }

    fn write_before(&mut self, t: Time) {
        while let Some(Reverse(line)) = self.pending.peek() {
            if line.at >= t {
                break;
            }
            let line = *line;
            self.pending.pop();
            let text = self.format(&line);
            let bytes = text.len() as u64 + 1;
            if self.written + bytes > self.max_bytes {
                self.stopped = Some(line.at);
                self.pending.clear();
                return;
            }
            self.written += bytes;
            if self.failed.is_none() {
                if let Err(e) = writeln!(self.out, "{text}") {
                    self.failed = Some(e);
                }
            }
        }
    }

    fn format(&self, l: &Line) -> String {
        let (from, to) = self.nodes.links[l.link as usize];
        let flow = l.flow as usize;
        let (kind, (src, dst)) = match l.kind {
            k if k == PacketKind::Data as u8 => ("tcp", self.nodes.flows[flow]),
            k if k == PacketKind::Ack as u8 => ("ack", swap(self.nodes.flows[flow])),
            _ => ("cbr", self.nodes.sources[flow]),
        };
        format!(
            "{} {} {from} {to} {kind} {} {} {} {src}.0 {dst}.0 {} {}",
            l.event as char,
            seconds(l.at),
            l.size,
            if l.cut { "---A---" } else { "-------" },
            l.flow,
            l.seq,
            l.uid
        )
    }
}

fn swap((a, b): (u32, u32)) -> (u32, u32) {
    (b, a)
}

/// `t` ns as ns-2 prints a time: rounded to the microsecond (half up), in
/// seconds with `%.15g`, so without trailing zeros or a bare point.
pub fn seconds(t: Time) -> String {
    let us = (t + 500) / 1000;
    let (whole, frac) = (us / 1_000_000, us % 1_000_000);
    if frac == 0 {
        return whole.to_string();
    }
    let digits = format!("{frac:06}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_as_ns2_rounds_them() {
        assert_eq!(seconds(0), "0");
        assert_eq!(seconds(1_000_000_000), "1");
        assert_eq!(seconds(1_084_264_400), "1.084264");
        assert_eq!(seconds(1_084_264_500), "1.084265");
        assert_eq!(seconds(100_000_000), "0.1");
        assert_eq!(seconds(999), "0.000001");
        assert_eq!(seconds(12_345_999_999_600), "12346");
    }

    #[test]
    fn unknown_and_repeated_links_are_named() {
        let spec = |links: &[&str]| PacketTraceSpec {
            links: links.iter().map(|s| s.to_string()).collect(),
            file: None,
            max_bytes: None,
        };
        let id = |n: &str| ["core", "edge_in.0"].iter().position(|&m| m == n).map(|i| i as u32);
        assert_eq!(spec(&["edge_in.0", "core"]).link_ids(id), Ok(vec![1, 0]));
        let e = spec(&["core", "cor"]).link_ids(id).unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("trace.links[1]", "no link named \"cor\""));
        let e = spec(&["core", "core"]).link_ids(id).unwrap_err();
        assert_eq!(e.field, "trace.links[1]");
        assert_eq!(spec(&[]).link_ids(id).unwrap_err().field, "trace.links");
        // At least 1 B: its schema's bound (`spec::bounds`).
        let zero = PacketTraceSpec { max_bytes: Some(0), ..spec(&["core"]) };
        assert_eq!(crate::spec::bounds::past_bound(&zero).as_deref(), Some("max_bytes"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_failed_write_is_the_file_failing_not_a_bad_field() {
        // /dev/full opens, and every write to it fails with ENOSPC.
        let spec =
            PacketTraceSpec { links: vec!["l".into()], file: Some("/dev/full".into()), max_bytes: None };
        let nodes = TraceNodes { links: vec![(0, 1)], flows: vec![(2, 3)], sources: vec![] };
        let mut t = PacketTrace::create(&spec, nodes).unwrap();
        let p = Packet {
            flow: 0,
            hop: 0,
            last_hop: 1,
            kind: PacketKind::Data,
            conn: 0,
            size: 1040,
            seq: 1,
            ecn: 0,
        };
        t.created(0, 0, &p, 0);
        t.offered(0, 0, 0, &p, 0, Some([0, 1_083_200]));
        let e = t.finish(2_000_000).unwrap_err();
        assert_eq!((e.file.as_str(), e.error.raw_os_error()), ("/dev/full", Some(28)));
        assert!(e.to_string().starts_with("writing \"/dev/full\" failed: "), "{e}");
    }

    /// Two data packets at 0 on a 1040 B / 83.2 us link with 1 ms of delay
    /// (the second waits for the first, and is the first after a window
    /// cut), then an ACK at 50 us dropped, traced with a cap of `max_bytes`:
    /// the file's lines and the warning.
    fn traced(max_bytes: Option<u64>) -> (Vec<String>, Option<String>) {
        let dir = std::env::temp_dir().join(format!("pacesim-trace-{}-{max_bytes:?}", std::process::id()));
        let file = Some(dir.to_string_lossy().into());
        let spec = PacketTraceSpec { links: vec!["l".into()], file, max_bytes };
        let nodes = TraceNodes { links: vec![(0, 1)], flows: vec![(2, 3)], sources: vec![] };
        let mut t = PacketTrace::create(&spec, nodes).unwrap();
        let p = |kind, seq| Packet { flow: 0, hop: 0, last_hop: 1, kind, conn: 0, size: 1040, seq, ecn: 0 };
        t.created(0, 0, &p(PacketKind::Data, 1), 0);
        t.created(1, 1, &p(PacketKind::Data, 2), 1);
        t.created(2, 2, &p(PacketKind::Ack, 0), 0);
        t.offered(0, 0, 0, &p(PacketKind::Data, 1), 0, Some([0, 1_083_200]));
        t.offered(0, 0, 1, &p(PacketKind::Data, 2), 0, Some([83_200, 1_166_400]));
        t.offered(50_000, 0, 2, &p(PacketKind::Ack, 0), 50_000, None);
        let warning = t.finish(1_100_000).unwrap();
        let text = std::fs::read_to_string(&dir).unwrap();
        std::fs::remove_file(&dir).unwrap();
        (text.lines().map(String::from).collect(), warning)
    }

    const LINES: [&str; 7] = [
        "+ 0 0 1 tcp 1040 ------- 0 2.0 3.0 1 0",
        "- 0 0 1 tcp 1040 ------- 0 2.0 3.0 1 0",
        "+ 0 0 1 tcp 1040 ---A--- 0 2.0 3.0 2 1",
        "+ 0.00005 0 1 ack 1040 ------- 0 3.0 2.0 0 2",
        "d 0.00005 0 1 ack 1040 ------- 0 3.0 2.0 0 2",
        "- 0.000083 0 1 tcp 1040 ---A--- 0 2.0 3.0 2 1",
        "r 0.001083 0 1 tcp 1040 ------- 0 2.0 3.0 1 0",
    ];

    #[test]
    fn lines_come_out_in_time_order_and_ties_as_recorded() {
        assert_eq!(traced(None), (LINES.map(String::from).to_vec(), None));
    }

    #[test]
    fn a_trace_stops_at_its_cap_on_a_whole_line_and_says_when() {
        // Room for the first three lines and part of the fourth (each line and its newline).
        let three: u64 = LINES[..3].iter().map(|l| l.len() as u64 + 1).sum();
        let (lines, warning) = traced(Some(three + 10));
        assert_eq!(lines, LINES[..3].iter().map(|l| l.to_string()).collect::<Vec<_>>());
        let warning = warning.expect("the trace stopped");
        assert!(
            warning.contains("stopped at 0.00005 s") && warning.contains(&format!("cap of {} B", three + 10))
        );
        assert_eq!(
            traced(Some(LINES.iter().map(|l| l.len() as u64 + 1).sum())).1,
            None,
            "exactly full is whole"
        );
    }
}
