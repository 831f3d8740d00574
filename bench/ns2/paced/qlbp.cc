// Queue/QLBP: Queue Length Based Pacing (paper Q, Cai, Wolf, Gong, JSAC
// 2011, Sec II-C "Queue Length Based Pacing System" and Sec II-D eq. 1) as
// the queue in front of a link; on paper Q's dumbbell (Sec IV-D, Fig. 17)
// one on each access link A_j -> C0.
//
// The model (Sec II-C/D). A delay queue (FIFO) feeds a rate controller
// whose output rate follows the queue length q (packets), eq. 1:
//     mu(q) = (mu_max - mu_min) / Q_max * q + mu_min   for 0 <= q < Q_max,
//     mu(q) = C (the link's rate)                      for q >= Q_max.
// An arrival that finds the queue full (q = Q_lim, ns-2's limit_) is
// dropped. Parameters: mu_max_, mu_min_ (bits/s), qmax_ (packets),
// limit_ (Q_lim, packets), link_bw_ (C, bits/s).
//
// The paper gives the rate as a function of time, mu(t) = mu(q(t)), and
// does not say how its ns-2 implementation applied it per packet. Its
// Table II (ns-2, CBR through one pacer) decides between the readings; the
// rule here is the one that reproduces it (qtab2.tcl, EDGE_QLBP.md):
//  1. The rate is fixed per packet when the packet leaves the queue, from
//     the queue length q at that moment counting the packet itself: it is
//     sent at once (the link transmits it at C), and the next packet may
//     leave s / mu(q) later, s the first one's size on the wire; arrivals
//     during that gap do not change it. At 4, 6, 8 Mb/s this gives mean
//     delays of 4.0, 5.5, 7.0 ms against the table's 4.0, 5.33, 7.0 (our
//     first reading, the rate following q(t) at every arrival with q
//     counting only the packets left behind, gives the fluid 5.0, 6.67,
//     7.5 ms).
//  2. A packet arriving to an empty queue when the gap has passed is sent
//     at once: "packets that arrive at a rate lower than mu_min ... do not
//     get delayed".
//  3. Never faster than the link: at q >= Q_max the gap is s / C, the
//     link's own transmission time, so packets go back to back.
// The delay through the pacer (packets_, delay_sum_, delay_max_, drops_;
// see paced_queue.h) runs from arrival to the start of transmission.
#include "qlbp.h"

static class QLBPClass : public TclClass {
public:
	QLBPClass() : TclClass("Queue/QLBP") {}
	TclObject* create(int, const char*const*) { return new QLBP; }
} class_qlbp;

// Event times equal in exact arithmetic may differ by rounding (s).
static const double TIME_EPS = 1e-12;

QLBP::QLBP() : free_at_(0.0)
{
	bind_bw("mu_max_", &mu_max_);
	bind_bw("mu_min_", &mu_min_);
	bind("qmax_", &qmax_);
	bind_bw("link_bw_", &link_bw_);
	pq_ = fifo_.queue();
}

double QLBP::rate(int q) const
{
	if (q >= qmax_)
		return link_bw_;
	return (mu_max_ - mu_min_) / qmax_ * q + mu_min_;
}

void QLBP::enque(Packet* p)
{
	if (fifo_.length() >= qlim_) {
		drops_++;
		drop(p);
		return;
	}
	fifo_.push(p, now());
}

Packet* QLBP::deque()
{
	if (fifo_.empty())
		return 0;
	if (now() + TIME_EPS < free_at_) {
		wake_at(free_at_);
		return 0;
	}
	double gap = 8. * hdr_cmn::access(fifo_.head())->size() / rate(fifo_.length());
	free_at_ = now() + gap;
	double arrival;
	Packet* p = fifo_.pop(&arrival);
	return handed(p, arrival);
}

// The gap has passed: the next packet may leave.
void QLBP::timeout()
{
	kick();
}
