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
// does not say how its ns-2 implementation applied it per packet. Choices,
// each stated:
//  1. The rate is fixed per packet, at the moment a packet leaves the
//     queue for the link: it is sent at once (the link then transmits it
//     at C), and the controller sends nothing more for s / mu(q), s the
//     packet's size on the wire and q the number of packets still in the
//     queue just after it left. So consecutive departures are spaced by
//     the first one's size over the rate at its departure; arrivals during
//     that gap do not shorten it.
//  2. q counts the packets waiting in the delay queue, not the one the link
//     is transmitting; the fluid equilibrium of Sec II-D (q = 0 while the
//     input rate is below mu_min) is q after a departure.
//  3. A packet arriving to an empty queue when the controller is free is
//     sent at once: "packets that arrive at a rate lower than mu_min ... do
//     not get delayed".
//  4. Never faster than the link: at q >= Q_max the gap is s / C, the
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
	double arrival;
	Packet* p = fifo_.pop(&arrival);
	free_at_ = now() + 8. * hdr_cmn::access(p)->size() / rate(fifo_.length());
	return handed(p, arrival);
}

// The controller is free again.
void QLBP::timeout()
{
	kick();
}
