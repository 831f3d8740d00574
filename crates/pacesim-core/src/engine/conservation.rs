//! Packet conservation: the totals of a world (or of both halves of a
//! split run), and the check that every packet created was delivered,
//! dropped, or is still somewhere the run can see it.

use super::world::World;

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The scenario cannot be used: the error names the field.
    #[error(transparent)]
    Invalid(#[from] crate::scenario::InvalidField),
    /// An output file could not be written: the work failed.
    #[error(transparent)]
    Write(#[from] crate::net::packet_trace::WriteFailed),
    #[error(
        "packet conservation violated: created {created} != delivered {delivered} + dropped {dropped} \
         + in flight {in_flight} (the event queue carries {carried})"
    )]
    Conservation { created: u64, delivered: u64, dropped: u64, in_flight: u64, carried: u64 },
}

/// Packet counts and work of a world, or of both halves of a split run.
#[derive(Debug, Clone, Copy)]
pub(super) struct Totals {
    pub(super) created: u64,
    pub(super) delivered: u64,
    pub(super) dropped: u64,
    /// Packets alive, and those the event queues, pacers and outboxes hold.
    pub(super) in_flight: u64,
    pub(super) carried: u64,
    pub(super) events: u64,
    pub(super) hops: u64,
}

impl Totals {
    pub(super) fn of(w: &World) -> Totals {
        let across = w.outbox.len() as u64 + w.unreceived;
        Totals {
            created: w.packets.created(),
            delivered: w.delivered,
            dropped: w.dropped,
            in_flight: w.packets.live() + across,
            carried: w.packets_in_queue() + across,
            events: w.queue.popped(),
            hops: w.hops,
        }
    }

    pub(super) fn and(&self, o: &Totals) -> Totals {
        Totals {
            created: self.created + o.created,
            delivered: self.delivered + o.delivered,
            dropped: self.dropped + o.dropped,
            in_flight: self.in_flight + o.in_flight,
            carried: self.carried + o.carried,
            events: self.events + o.events,
            hops: self.hops + o.hops,
        }
    }

    /// Packet conservation: every packet created was delivered, dropped,
    /// or is still somewhere the run can see it.
    pub(super) fn check(&self) -> Result<(), RunError> {
        let t = *self;
        if t.created != t.delivered + t.dropped + t.in_flight || t.carried != t.in_flight {
            return Err(RunError::Conservation {
                created: t.created,
                delivered: t.delivered,
                dropped: t.dropped,
                in_flight: t.in_flight,
                carried: t.carried,
            });
        }
        Ok(())
    }
}
