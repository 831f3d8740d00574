// Queue/EdgePacer: the optimal delay-bounded edge pacer of paper E Sec 2.1
// as the queue in front of a link (on E-base, each ingress edge link
// E_Si -> C0; paper E Sec 3: "a new link type, by extending the drop-tail
// link").
//
// The model (paper E Sec 2.1, Fig. 1). A(t) is the cumulative arriving
// workload (bytes), D(t) the deadline curve: every byte of a packet that
// arrives at a must have left by a + d, d the delay bound (delay_). The
// exit curve S(t) must lie between D and A; the smoothest one is the
// shortest path (taut string) between them, and online it is followed by
// releasing at "the corresponding instantaneous slope" of the convex hull
// of the deadline curve.
//
// What the pacer knows: only the packets in its queue and their deadlines
// (arrival + d); never future arrivals. Choices, each stated:
//  1. The plan. At an instant t the plan has covered `planned_` bytes of
//     the head packet. With the held packets k = 1..n (FIFO, so deadlines
//     t_k = a_k + d are in order) and W_k = (bytes of packets 1..k) -
//     planned_, the deadline curve seen from t is the staircase with
//     corners (t_k, W_k). The taut string from (t, 0) above it starts with
//     the slope of its upper hull seen from (t, 0): rate = max_k W_k /
//     (t_k - t). The arrival curve bounds the path only at W_n (all that
//     has arrived), which the path reaches last, so it never binds.
//  2. The rate is constant between events: from (t, 0) the path runs
//     straight to the touching corner, where the packet whose last byte it
//     is gets released. So the rate is recomputed at every arrival (a new
//     corner) and every release (the next hull segment), by a scan over the
//     held packets (O(n) per event; ref. [6]'s O(1) amortised hull gives
//     the same rate).
//  3. Never faster than the link: rate = min(hull slope, link rate C =
//     link_bw_). If a deadline is already due (t_k <= t: only possible
//     when the link rate capped the plan), the rate is C.
//  4. A packet is released when the plan reaches its last byte; released
//     packets are handed to the link in order when it is idle (a released
//     packet may wait for the one before it when packets differ in size,
//     e.g. a 40 B SYN behind a 1040 B segment: the plan's rate caps at C,
//     but a short packet's share of the plan ends before a long one's
//     transmission does).
//  5. d <= 0: no pacing; packets are released on arrival ("when d = 0,
//     pacing is in effect disabled").
//  6. The pacer never drops (the edge links' queues are unlimited in
//     E-base).
// The delay through the pacer (packets_, delay_sum_, delay_max_; see
// paced_queue.h) runs from arrival to the start of transmission, so it
// is at most d except when the link rate caps the plan.
#include "edge_pacer.h"

static class EdgePacerClass : public TclClass {
public:
	EdgePacerClass() : TclClass("Queue/EdgePacer") {}
	TclObject* create(int, const char*const*) { return new EdgePacer; }
} class_edge_pacer;

EdgePacer::EdgePacer() : planned_(0.0), rate_(0.0), last_(0.0)
{
	bind_time("delay_", &delay_);
	bind_bw("link_bw_", &link_bw_);
	pq_ = held_.queue();
}

void EdgePacer::enque(Packet* p)
{
	advance();
	held_.push(p, now());
	if (delay_ <= 0.0) {
		timeout();
		return;
	}
	replan();
}

Packet* EdgePacer::deque()
{
	if (ready_.empty())
		return 0;
	double arrival;
	Packet* p = ready_.pop(&arrival);
	return handed(p, arrival);
}

// The plan reaches the head packet's last byte now: release it.
void EdgePacer::timeout()
{
	while (!held_.empty()) {
		double arrival;
		Packet* p = held_.pop(&arrival);
		ready_.push(p, arrival);
		if (delay_ > 0.0)
			break;
	}
	planned_ = 0.0;
	last_ = now();
	replan();
	kick();
}

void EdgePacer::advance()
{
	if (!held_.empty()) {
		planned_ += rate_ * (now() - last_);
		// The timer releases the head when the plan reaches its last byte.
		double head = bytes(held_.head());
		if (planned_ > head)
			planned_ = head;
	}
	last_ = now();
}

void EdgePacer::replan()
{
	if (held_.empty() || delay_ <= 0.0) {
		rate_ = 0.0;
		planned_ = 0.0;
		sleep();
		return;
	}
	double remaining = bytes(held_.head()) - planned_;
	if (remaining <= 0.0) {
		wake_at(now());
		return;
	}
	double c = link_bw_ / 8.0;
	double w = -planned_;
	double slope = 0.0;
	int i = 0;
	for (Packet* p = held_.head(); p != 0; p = p->next_, i++) {
		w += bytes(p);
		double due = held_.arrival(i) + delay_ - now();
		if (due <= 0.0) {
			slope = c;
			break;
		}
		if (w / due > slope)
			slope = w / due;
	}
	rate_ = slope < c ? slope : c;
	wake_at(now() + remaining / rate_);
}
