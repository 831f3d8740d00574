// A queue in front of a link that holds packets until a pacing rule lets
// them go: the common part of Queue/EdgePacer (paper E Sec 2.1,
// edge_pacer.cc) and Queue/QLBP (paper Q Sec II-C/D, qlbp.cc).
//
// What the subclasses share:
//  - TimedFifo: a FIFO of packets with each packet's arrival time (s);
//  - a timer that calls the subclass's timeout() at the next pacing event;
//  - kick(): hand the next packet the subclass's deque() gives to the link
//    if the link is idle, exactly as Queue::recv does after an enque (the
//    link calls Queue::resume, which calls deque(), when it is free again);
//  - delay statistics: a packet's delay through the queue runs from its
//    arrival to the moment it is handed to the link (its transmission
//    starts). Over the packets handed over since the last `reset-stats`
//    (or creation), Tcl reads packets_, delay_sum_ (s) and delay_max_ (s),
//    and drops_, the arrivals the queue dropped (QLBP at its limit).
#ifndef ns_paced_queue_h
#define ns_paced_queue_h

#include <deque>

#include "queue.h"
#include "timer-handler.h"

// Packets in arrival order with their arrival times (s).
class TimedFifo {
public:
	void push(Packet* p, double arrival) { q_.enque(p); at_.push_back(arrival); }
	// The head packet; its arrival time goes to *arrival.
	Packet* pop(double* arrival) {
		*arrival = at_.front();
		at_.pop_front();
		return q_.deque();
	}
	Packet* head() { return q_.head(); }
	double head_arrival() const { return at_.front(); }
	int length() const { return q_.length(); }
	bool empty() const { return q_.length() == 0; }
	// The i-th arrival time, 0 at the head.
	double arrival(int i) const { return at_[i]; }
	PacketQueue* queue() { return &q_; }
private:
	PacketQueue q_;
	std::deque<double> at_;
};

class PacedQueue;

class PaceTimer : public TimerHandler {
public:
	PaceTimer(PacedQueue* q) : q_(q) {}
protected:
	void expire(Event*);
private:
	PacedQueue* q_;
};

class PacedQueue : public Queue {
public:
	PacedQueue();
	int command(int argc, const char*const* argv);
	// The pacing event the timer was set for.
	virtual void timeout() = 0;
protected:
	static double now() { return Scheduler::instance().clock(); }
	// Hand a packet to the link now if the link is idle.
	void kick();
	// Count a packet that arrived at `arrival` and is handed to the link now.
	Packet* handed(Packet* p, double arrival);
	// Fire timeout() at absolute time t (>= now), replacing any earlier setting.
	void wake_at(double t);
	void sleep();

	int packets_;
	int drops_;
	double delay_sum_;
	double delay_max_;
private:
	PaceTimer timer_;
};

#endif
