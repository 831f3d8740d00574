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
//  1. A packet leaving the queue is sent at once (the link transmits it at
//     C), and the controller then owes its s bytes (its size on the wire)
//     of output at rate mu(q(t)) before the next packet may leave. The rate
//     follows q: it changes at every arrival and departure, and the debt
//     left is paid at the new rate from then on. (Fixing the rate at the
//     departure instead would hold the second packet of every burst that
//     reaches an idle pacer for s / mu_min, 8 ms at 1 Mb/s, since the
//     queue is empty when the first leaves.)
//  2. q counts the packets waiting in the delay queue, not the one the link
//     is transmitting; the fluid equilibrium of Sec II-D (q = 0 while the
//     input rate is below mu_min) is q after a departure.
//  3. A packet arriving to an empty queue when the debt is paid is sent at
//     once: "packets that arrive at a rate lower than mu_min ... do not get
//     delayed".
//  4. Never faster than the link: at q >= Q_max the debt is paid at C in
//     the link's own transmission time, so packets go back to back.
// The delay through the pacer (packets_, delay_sum_, delay_max_, drops_;
// see paced_queue.h) runs from arrival to the start of transmission.
#include "qlbp.h"

static class QLBPClass : public TclClass {
public:
	QLBPClass() : TclClass("Queue/QLBP") {}
	TclObject* create(int, const char*const*) { return new QLBP; }
} class_qlbp;

// Debt (bytes) small enough to be rounding: the controller is free.
static const double DEBT_EPS = 1e-6;

QLBP::QLBP() : debt_(0.0), rate_bps_(0.0), last_(0.0)
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

void QLBP::follow()
{
	debt_ -= rate_bps_ / 8.0 * (now() - last_);
	if (debt_ < DEBT_EPS)
		debt_ = 0.0;
	last_ = now();
	rate_bps_ = rate(fifo_.length());
}

void QLBP::retime()
{
	if (!fifo_.empty() && debt_ > 0.0)
		wake_at(now() + 8.0 * debt_ / rate_bps_);
	else
		sleep();
}

void QLBP::enque(Packet* p)
{
	if (fifo_.length() >= qlim_) {
		drops_++;
		drop(p);
		return;
	}
	follow();
	fifo_.push(p, now());
	rate_bps_ = rate(fifo_.length());
	retime();
}

Packet* QLBP::deque()
{
	follow();
	if (fifo_.empty() || debt_ > 0.0) {
		retime();
		return 0;
	}
	double arrival;
	Packet* p = fifo_.pop(&arrival);
	debt_ = hdr_cmn::access(p)->size();
	rate_bps_ = rate(fifo_.length());
	retime();
	return handed(p, arrival);
}

// The debt is paid: the next packet may leave.
void QLBP::timeout()
{
	kick();
}
