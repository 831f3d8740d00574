//! The connections of a short-lived flow: each transfer of its user opens
//! one (a new sender and sink), and its full acknowledgment closes it; or,
//! for a persistent user, every file after the first goes on the one
//! connection its first file opened.

use super::{Event, World};

impl World {
    /// A short-lived flow opens the connection for its user's next file:
    /// a new sender and sink, exactly like the flow's first ones; a
    /// persistent user's sender, after the first file, is given the next
    /// file's packets instead.
    pub(super) fn open_connection(&mut self, f: u32) {
        let first = self.setup.first_data();
        let (flow, sender) = (&mut self.flows[f as usize], &mut self.senders[f as usize]);
        let Some(user) = &mut flow.user else { return };
        let packets = user.begin(self.now, self.setup.tcp.segment_size) as i64;
        if user.persistent && flow.conn > 0 {
            sender.send_more(packets);
            return;
        }
        let stats = sender.state.stats;
        sender.tcp = self.setup.sender(f as usize, sender.is_paced()).with_data(first + packets);
        sender.state.stats = stats;
        let sink = &mut self.sinks[f as usize];
        sink.delivered_before = sink.delivered_in_all(first);
        sink.tcp = self.setup.sink(sender);
        flow.conn += 1;
    }

    /// A short-lived flow's transfer is acknowledged in full: record it,
    /// close the connection, and start the next after the user's think time.
    pub(super) fn finish_transfer(&mut self, f: u32) {
        let now = self.now;
        let (flow, sender) = (&mut self.flows[f as usize], &mut self.senders[f as usize]);
        sender.close();
        sender.cwnd.set(now, None);
        let (transfer, next) = flow.user.as_mut().expect("a short-lived flow").finish(now);
        self.transfers.push((f, transfer));
        self.schedule(next, Event::Start(f));
    }
}
