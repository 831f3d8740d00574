// Queue/EdgePacer: the optimal delay-bounded edge pacer of paper E Sec 2.1
// (Gharakheili, Vishwanath, Sivaraman; the algorithm of their ref. [6]) as
// the queue in front of a link. See edge_pacer.cc for the model.
#ifndef ns_edge_pacer_h
#define ns_edge_pacer_h

#include "paced_queue.h"

class EdgePacer : public PacedQueue {
public:
	EdgePacer();
	void timeout();
protected:
	void enque(Packet* p);
	Packet* deque();
private:
	// Move the plan on to now over the held packets.
	void advance();
	// The plan's rate from now (bytes/s) and the timer for its next release.
	void replan();
	// A packet's bytes on the wire.
	int bytes(Packet* p) const { return hdr_cmn::access(p)->size(); }

	double delay_;    // d, the delay bound (s); 0 or less: no pacing
	double link_bw_;  // rate of the link behind the pacer (bits/s)
	TimedFifo held_;  // packets the plan has not reached the last byte of
	TimedFifo ready_; // released packets waiting for the link
	double planned_;  // bytes of held_'s head the plan has covered, [0, its size)
	double rate_;     // the plan's rate since last_ (bytes/s)
	double last_;     // the time planned_ was brought up to (s)
};

#endif
