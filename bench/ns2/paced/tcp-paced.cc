/*
 * Host (TCP) pacing for ns-2 2.35, after paper W (Wei, Cao, Low, "TCP
 * Pacing Revisited"), Sec III-A: the sender releases its new packets one at
 * a time from a per-connection timer instead of as the ACKs clock them out.
 * After a packet leaves at t the next may leave at t + gap, where
 *
 *   pace_mode_ 1, "original" pacing:   gap = RTT / cwnd
 *   pace_mode_ 2, "modified" pacing:   gap = RTT / max(cwnd + 1, min(2 cwnd, ssthresh))
 *                                      (paper W eq. 7: the window expected
 *                                      one RTT later, so that pacing does not
 *                                      slow the window's growth down, eq. 6)
 *   pace_mode_ 0:                      no pacing (the base agent unchanged)
 *
 * with cwnd and ssthresh as they stand when the packet leaves. The window
 * still bounds what may be sent; pacing only delays it. RTT is an exact
 * exponentially weighted mean (gain 1/8, as RFC 6298's srtt) of the RTT
 * samples ns-2 hands to rtt_update (one timed packet per window), in
 * seconds: not t_srtt_, which counts 10 ms ticks (tcpTick_). Until the first
 * sample (the SYN's ACK, with syn_ true) nothing is paced.
 *
 * What is paced is what the agent's own send_much sends: new data and,
 * for Sack1, the holes it retransmits from the scoreboard. The fast
 * retransmission itself and limited transmit (singledup_) call output()
 * directly and go at once, without moving the pacing clock.
 *
 * Classes: Agent/TCP/Reno/Paced, Agent/TCP/Newreno/Paced,
 * Agent/TCP/Sack1/Paced. Bound variables (set a class default before
 * creating agents, see bench/ns2/paced/paced.tcl):
 *   pace_mode_     0, 1 or 2 as above;
 *   pace_srtt_     the pacing RTT, s (read only);
 *   fast_cuts_     window reductions on ACK arrival (fast retransmits;
 *                  with nrexmit_, the timeouts, the flow's loss events).
 */

#include "tcp.h"
#include "timer-handler.h"
#include "tcp-sack1.h"  /* Sack1TcpAgent's declaration, made by build.sh */

template <class Base>
class PacedTcpAgent : public Base {
public:
	PacedTcpAgent() : timer_(this), srtt_(0.0), next_(0.0), fast_cuts_(0) {
		this->bind("pace_mode_", &pace_mode_);
		this->bind("pace_srtt_", &srtt_);
		this->bind("fast_cuts_", &fast_cuts_);
	}

	virtual void send_much(int force, int reason, int maxburst) {
		if (pace_mode_ == 0 || srtt_ <= 0.0) {
			Base::send_much(force, reason, maxburst);
			return;
		}
		/* A pending timer releases the next packet itself. */
		if (timer_.status() == TIMER_PENDING)
			return;
		double now = Scheduler::instance().clock();
		if (now < next_) {
			timer_.resched(next_ - now);
			return;
		}
		release(force, reason);
	}

	virtual void rtt_update(double tao) {
		Base::rtt_update(tao);
		srtt_ = srtt_ > 0.0 ? srtt_ + (tao - srtt_) / 8.0 : tao;
	}

	virtual void recv(Packet* pkt, Handler* h) {
		double before = this->cwnd_;
		Base::recv(pkt, h);
		if (this->cwnd_ < before)
			++fast_cuts_;
	}

	virtual void reset() {
		Base::reset();
		timer_.force_cancel();
		srtt_ = next_ = 0.0;
		fast_cuts_ = 0;
	}

private:
	/* Let the base agent send at most one packet; if one left, the next may
	 * leave one gap later, and the timer tries then. */
	void release(int force, int reason) {
		int sent = this->ndatapack_;
		Base::send_much(force, reason, 1);
		if (this->ndatapack_ == sent)
			return;
		double gap = srtt_ / packets_per_rtt();
		next_ = Scheduler::instance().clock() + gap;
		timer_.resched(gap);
	}

	double packets_per_rtt() {
		double cwnd = this->cwnd_;
		if (pace_mode_ == 1)
			return cwnd;
		double next_rtt = 2.0 * cwnd < this->ssthresh_ ? 2.0 * cwnd : double(this->ssthresh_);
		return cwnd + 1.0 > next_rtt ? cwnd + 1.0 : next_rtt;
	}

	class PaceTimer : public TimerHandler {
	public:
		PaceTimer(PacedTcpAgent* a) : a_(a) {}
	protected:
		virtual void expire(Event*) { a_->release(0, 0); }
		PacedTcpAgent* a_;
	};

	PaceTimer timer_;
	int pace_mode_;
	double srtt_;   /* s; 0 until the first sample */
	double next_;   /* earliest time the next paced packet may leave, s */
	int fast_cuts_;
};

template <class Base>
class PacedTcpClass : public TclClass {
public:
	PacedTcpClass(const char* name) : TclClass(name) {}
	TclObject* create(int, const char*const*) { return new PacedTcpAgent<Base>(); }
};

static PacedTcpClass<RenoTcpAgent> class_reno_paced("Agent/TCP/Reno/Paced");
static PacedTcpClass<NewRenoTcpAgent> class_newreno_paced("Agent/TCP/Newreno/Paced");
static PacedTcpClass<Sack1TcpAgent> class_sack1_paced("Agent/TCP/Sack1/Paced");
