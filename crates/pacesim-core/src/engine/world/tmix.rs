//! Tmix clouds in a world (`traffic::tmix`): connections started at their
//! vectors' times, each end's application ([`Connection`]) driving a TCP
//! sender of its own, and the DelayBox holding each connection's packets.
//!
//! A connection's end sends over a flow of its own: sender at that end's
//! host, sink at the other's. Flows are taken from a pool of the cloud's
//! flows between its two hosts (flows past the topology's own, on the two
//! routes between the hosts) and given back once the connection has
//! nothing left to do, every ADU handled and every packet acknowledged; a
//! flow taken again opens a new connection on it (fresh sender and sink;
//! packets of the old one are discarded on arrival), as ns-2 recycles its
//! agents. A connection whose ends never run out of things to do (see
//! `traffic::tmix::app`) keeps its flows to the end.
//!
//! The DelayBox: the route hops leaving the cloud's DelayBox router are
//! marked [`Hop::DELAYED`] (and held, so that no packet is carried onto
//! them ahead of time); a Tmix packet reaching one waits its connection's
//! delay in an [`Event::Delayed`] or is dropped at its loss rate, then goes
//! on through the link's pacer or onto the link. Packets of other traffic
//! on those routes pass at once. A Tmix run is never split in two halves.

use rand::Rng;

use super::hop::{self, Hop};
use super::{Event, Flow, SenderEnd, SenderMeasured, SinkEnd, SinkMeasured, World};
use crate::net::{PacketId, PacketKind};
use crate::report::TmixTable;
use crate::scenario::Scenario;
use crate::sim::rng::{stream, Stream};
use crate::sim::time::secs;
use crate::sim::Time;
use crate::spec::{bad, InvalidField};
use crate::topology::FlowPath;
use crate::traffic::tmix::{Action, Cloud, Connection, End, ACC, INIT};

const FREE: u32 = u32::MAX;

/// The Tmix clouds of a run.
pub struct Tmix {
    /// Flows from this one on are Tmix ends.
    pub base: u32,
    clouds: Vec<CloudRun>,
    /// Per Tmix flow (from `base`): the live connection it carries and which end sends on it.
    slots: Vec<(u32, End)>,
    live: Vec<Option<Live>>,
    free_live: Vec<u32>,
    /// Rows of the connections given back, with their number in the order they started.
    rows: Vec<(u64, Row)>,
    /// Connections started so far, in every cloud.
    started: u64,
    actions: Vec<Action>,
    mss: u64,
    header: u64,
    window: u64,
    /// The end of the run: no connection starts at or after it.
    end: Time,
}

struct CloudRun {
    cloud: Cloud,
    lossless: bool,
    /// Connections started so far (every play counted).
    started: u64,
    /// The initiator's data route and the acceptor's.
    routes: [u32; 2],
    /// Flows of each end not carrying a connection.
    free: [Vec<u32>; 2],
    loss: Stream,
}

struct Live {
    cloud: u32,
    /// Its number among all the run's connections (the report's order).
    order: u64,
    vector: usize,
    conn: Connection,
    flows: [u32; 2],
}

#[derive(Clone, Copy)]
struct Row {
    cloud: u32,
    id: u64,
    start: Time,
    receipts: u32,
    last: Option<Time>,
    done: Option<Time>,
    bytes: [u64; 2],
}

/// The flow of end `end` of a connection on `routes`: its data on the end's route, ACKs on the other.
fn path(routes: [u32; 2], end: End) -> FlowPath {
    FlowPath { fwd: routes[end], rev: routes[1 - end] }
}

impl Tmix {
    /// The clouds of `s`, with the routes between their hosts (`routes`,
    /// initiator's and acceptor's, as `engine::build` connected them), for
    /// a world of `flows` flows.
    pub fn new(s: &Scenario, routes: &[[u32; 2]], flows: usize) -> Result<Self, InvalidField> {
        let (mss, header) = (s.tcp.segment_size, s.tcp.header_size);
        let clouds = (s.traffic.tmix.iter().zip(routes).enumerate())
            .map(|(i, (spec, &routes))| {
                Ok(CloudRun {
                    cloud: spec.load(&format!("traffic.tmix[{i}]"), mss, header, s.duration)?,
                    lossless: spec.lossless,
                    started: 0,
                    routes,
                    free: [Vec::new(), Vec::new()],
                    loss: stream(s.seed, "tmix.loss", i as u64),
                })
            })
            .collect::<Result<_, InvalidField>>()?;
        Ok(Tmix {
            base: flows as u32,
            clouds,
            slots: Vec::new(),
            live: Vec::new(),
            free_live: Vec::new(),
            rows: Vec::new(),
            started: 0,
            actions: Vec::new(),
            mss,
            header,
            window: s.tcp.window,
            end: s.duration,
        })
    }

    /// When cloud `c`'s next connection starts, if it has one before the end.
    fn next_start(&self, c: u32) -> Option<Time> {
        let cloud = &self.clouds[c as usize];
        cloud.cloud.connection(cloud.started).map(|(_, t)| t).filter(|&t| t < self.end)
    }

    /// The live connection flow `f` carries, and the end sending on it.
    fn slot(&self, f: u32) -> Option<(u32, End)> {
        let &(l, end) = self.slots.get(f.checked_sub(self.base)? as usize)?;
        (l != FREE).then_some((l, end))
    }

    /// The report's table: every connection, in the order they started.
    pub fn table(&self) -> TmixTable {
        let mut rows: Vec<(u64, Row)> = self.rows.clone();
        rows.extend(self.live.iter().flatten().map(|l| (l.order, self.row(l))));
        rows.sort_by_key(|(k, _)| *k);
        let mut t = TmixTable::default();
        for (_, r) in rows {
            t.cloud.push(r.cloud);
            t.id.push(r.id);
            t.start_s.push(secs(r.start));
            t.receipts.push(r.receipts);
            t.last_s.push(r.last.map(secs));
            t.done_s.push(r.done.map(secs));
            t.init_bytes.push(r.bytes[INIT]);
            t.acc_bytes.push(r.bytes[ACC]);
        }
        t
    }

    fn row(&self, l: &Live) -> Row {
        let cv = &self.clouds[l.cloud as usize].cloud.vectors[l.vector];
        let bytes = |adus: &[crate::traffic::tmix::cvec::Adu]| adus.iter().map(|a| a.bytes).sum();
        Row {
            cloud: l.cloud,
            id: cv.id,
            start: l.conn.start,
            receipts: l.conn.receipts,
            last: l.conn.last_receipt,
            done: l.conn.done,
            bytes: [bytes(&cv.init), bytes(&cv.acc)],
        }
    }
}

impl World {
    /// Mark the hops leaving each cloud's DelayBox router on its routes
    /// (checked: a router on the way), and schedule each cloud's first
    /// connection.
    pub(crate) fn start_tmix(&mut self, s: &Scenario) -> Result<(), InvalidField> {
        let Some(t) = self.tmix.as_ref() else { return Ok(()) };
        let routes: Vec<[u32; 2]> = t.clouds.iter().map(|c| c.routes).collect();
        for (i, (spec, routes)) in s.traffic.tmix.iter().zip(routes).enumerate() {
            let Some(name) = &spec.delaybox else { continue };
            let field = format!("traffic.tmix[{i}].delaybox");
            let node = (self.net.nodes.iter().take(self.net.routers).position(|n| n == name))
                .ok_or_else(|| bad(&field, format!("no router named {name:?}")))?
                as u32;
            for route in routes {
                let span = self.net.routes.span(route);
                let at = (span.start..span.end)
                    .find(|&h| self.net.router.half_ends(self.net.routes.hops()[h as usize]).0 == node)
                    .ok_or_else(|| {
                        bad(&field, format!("{name:?} is not on the way between the cloud's hosts"))
                    })?;
                let hops = hop::unshared(&mut self.route_hops);
                hops[at as usize].0 |= Hop::HELD | Hop::DELAYED;
                // Nothing is carried onto it ahead of its delay.
                hops[at as usize - 1].0 &= !Hop::ONWARD;
            }
        }
        for c in 0..self.tmix.as_ref().expect("checked").clouds.len() as u32 {
            self.schedule_tmix(c);
        }
        Ok(())
    }

    fn schedule_tmix(&mut self, c: u32) {
        let t = self.tmix.as_ref().expect("a Tmix run");
        if let Some(at) = t.next_start(c) {
            self.schedule(at.max(self.now), Event::TmixStart(c));
        }
    }

    /// Take the Tmix clouds `t`: flows from `t.base` on are their ends.
    pub(crate) fn set_tmix(&mut self, t: Tmix) {
        self.tmix_from = t.base;
        self.tmix = Some(Box::new(t));
    }

    /// Flows below this one are the topology's (none are Tmix ends).
    #[inline]
    pub(super) fn tmix_base(&self) -> u32 {
        self.tmix_from
    }

    /// Cloud `c`'s next connection starts now.
    pub(super) fn tmix_start(&mut self, c: u32) {
        let now = self.now;
        let t = self.tmix.as_mut().expect("a Tmix run");
        let cloud = &mut t.clouds[c as usize];
        let (vector, _) = cloud.cloud.connection(cloud.started).expect("scheduled for it");
        let order = t.started;
        t.started += 1;
        cloud.started += 1;
        let windows = cloud.cloud.windows(vector, t.mss, t.window);
        let mut conn = Connection::new(&cloud.cloud.vectors[vector], t.mss, t.header, now);
        conn.start(now);
        let l = match t.free_live.pop() {
            Some(l) => l,
            None => {
                t.live.push(None);
                t.live.len() as u32 - 1
            }
        };
        let mut flows = [0; 2];
        for end in [INIT, ACC] {
            let cloud = &mut t.clouds[c as usize];
            let f = match cloud.free[end].pop() {
                Some(f) => f,
                None => {
                    let f = self.flows.len() as u32;
                    let p = path(cloud.routes, end);
                    self.net.flows.push(p);
                    let sender = self.setup.sender(f as usize, false);
                    self.sinks.push(SinkEnd::new(self.setup.sink(&sender)));
                    self.senders.push(SenderEnd::new(sender));
                    self.flows.push(Flow::new(p, now, None));
                    self.measured_senders.push(SenderMeasured::default());
                    self.measured_sinks.push(SinkMeasured::default());
                    t.slots.push((FREE, end));
                    f
                }
            };
            t.slots[(f - t.base) as usize] = (l, end);
            let window = if end == INIT { windows.0 } else { windows.1 };
            let sender = self.setup.sender(f as usize, false).with_data(0).with_window(window);
            // A slot's next connection: new TCP ends, what they measured kept.
            self.sinks[f as usize].tcp = self.setup.sink(&sender);
            self.senders[f as usize].tcp = sender;
            let flow = &mut self.flows[f as usize];
            flow.start = now;
            flow.conn += 1;
            flows[end] = f;
        }
        t.live[l as usize] = Some(Live { cloud: c, order, vector, conn, flows });
        for f in flows {
            self.arm_tmix(f);
        }
        self.schedule_tmix(c);
    }

    /// Schedule the event of the timer of the end sending on flow `f`, if it needs one.
    fn arm_tmix(&mut self, f: u32) {
        let t = self.tmix.as_mut().expect("a Tmix run");
        let Some((l, end)) = t.slot(f) else { return };
        let live = t.live[l as usize].as_mut().expect("a live connection");
        if let Some(at) = live.conn.timer(end).needs_event() {
            self.schedule(at, Event::TmixApp(f));
        }
    }

    /// The timer of the end sending on flow `f` may fire.
    pub(super) fn tmix_timer(&mut self, f: u32) {
        let now = self.now;
        let t = self.tmix.as_mut().expect("a Tmix run");
        let Some((l, end)) = t.slot(f) else { return };
        let live = t.live[l as usize].as_mut().expect("a live connection");
        if live.conn.timer(end).fires(now) {
            let mut actions = std::mem::take(&mut t.actions);
            live.conn.fire(end, now, &mut actions);
            let flows = live.flows;
            for a in actions.drain(..) {
                let Action::Send { end, packets } = a;
                let g = flows[end];
                self.senders[g as usize].advance(packets as i64, now, &mut self.out);
                self.transmit(g);
            }
            self.tmix.as_mut().expect("a Tmix run").actions = actions;
        }
        self.arm_tmix(f);
        self.tmix_settle(f);
    }

    /// Flow `f`'s sink delivered its packets `before..after` (in order, now):
    /// the receiving end counts their bytes.
    pub(super) fn tmix_delivered(&mut self, f: u32, before: i64, after: i64) {
        let Some((l, end)) = self.tmix.as_ref().and_then(|t| t.slot(f)) else { return };
        let size = u64::from(self.sizes.data);
        let mut wire = (after - before) as u64 * size;
        if let Some(syn) = self.sizes.syn.filter(|_| before == 0) {
            wire = wire - size + u64::from(syn);
        }
        let now = self.now;
        let t = self.tmix.as_mut().expect("a Tmix run");
        let live = t.live[l as usize].as_mut().expect("a live connection");
        live.conn.receive(1 - end, wire, now);
        let other = live.flows[1 - end];
        self.arm_tmix(other);
        self.tmix_settle(f);
    }

    /// An ACK reached flow `f`'s sender: its connection may be over.
    pub(super) fn tmix_acked(&mut self, f: u32) {
        self.tmix_settle(f);
    }

    /// Give the flows of flow `f`'s connection back if it has nothing left
    /// to do: every ADU handled, no timer set, every packet acknowledged.
    fn tmix_settle(&mut self, f: u32) {
        let t = self.tmix.as_mut().expect("a Tmix run");
        let Some((l, _)) = t.slot(f) else { return };
        let live = t.live[l as usize].as_ref().expect("a live connection");
        if !live.conn.idle() || live.flows.iter().any(|&g| !self.senders[g as usize].done()) {
            return;
        }
        let live = t.live[l as usize].take().expect("checked");
        let row = t.row(&live);
        t.rows.push((live.order, row));
        t.free_live.push(l);
        for (end, g) in live.flows.into_iter().enumerate() {
            t.slots[(g - t.base) as usize] = (FREE, end);
            t.clouds[live.cloud as usize].free[end].push(g);
            self.senders[g as usize].close();
        }
    }

    /// Packet `id` reaches a DelayBox: true if it is held there (until an
    /// `Event::Delayed`) or dropped, false if it goes on at once (not a
    /// Tmix connection's, or one without an entry or delay).
    pub(super) fn delay_box(&mut self, id: PacketId) -> bool {
        let p = *self.packets.get(id);
        if !matches!(p.kind, PacketKind::Data | PacketKind::Ack) || p.flow < self.tmix_base() {
            return false;
        }
        if p.conn != self.flows[p.flow as usize].conn {
            return false; // a closed connection's: discarded where it arrives
        }
        let t = self.tmix.as_mut().expect("a Tmix run");
        let Some((l, end)) = t.slot(p.flow) else { return false };
        let live = t.live[l as usize].as_ref().expect("a live connection");
        let cloud = &mut t.clouds[live.cloud as usize];
        let Some((delay, (fwd, rev))) = cloud.cloud.delays[live.vector] else { return false };
        // Initiator to acceptor: the initiator's data and the acceptor's ACKs.
        let loss = if (end == INIT) == (p.kind == PacketKind::Data) { fwd } else { rev };
        if !cloud.lossless && loss > 0.0 && cloud.loss.gen::<f64>() < loss {
            self.lose(id);
            true
        } else if delay == 0 {
            false
        } else {
            self.schedule(self.now + delay, Event::Delayed(id));
            true
        }
    }

    /// Flows from this one on are Tmix ends (the flows' count without clouds).
    pub(crate) fn tmix_flows_from(&self) -> usize {
        self.tmix.as_ref().map_or(self.flows.len(), |t| t.base as usize)
    }

    /// The report's Tmix table, when the run has clouds.
    pub(crate) fn tmix_table(&self) -> Option<TmixTable> {
        self.tmix.as_ref().map(|t| t.table())
    }
}

/// The routes between each cloud's hosts, initiator's and acceptor's, added
/// to `net`; errors name the host.
pub(crate) fn connect(
    s: &Scenario,
    net: &mut crate::topology::Network,
) -> Result<Vec<[u32; 2]>, InvalidField> {
    (s.traffic.tmix.iter().enumerate())
        .map(|(i, t)| {
            let host = |key: &str, name: &String, net: &crate::topology::Network| match net.not_a_host(name) {
                None => Ok(()),
                Some(why) => Err(bad(&format!("traffic.tmix[{i}].{key}"), why)),
            };
            host("initiator", &t.initiator, net)?;
            host("acceptor", &t.acceptor, net)?;
            let unconnected = || {
                bad(
                    &format!("traffic.tmix[{i}]"),
                    format!("no route between hosts {:?} and {:?}", t.initiator, t.acceptor),
                )
            };
            let there = net.connect(&t.initiator, &t.acceptor).ok_or_else(unconnected)?;
            let back = net.connect(&t.acceptor, &t.initiator).ok_or_else(unconnected)?;
            Ok([there, back])
        })
        .collect()
}
