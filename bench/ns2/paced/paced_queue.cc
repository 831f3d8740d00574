// The common part of the pacers (see paced_queue.h).
#include "paced_queue.h"

void PaceTimer::expire(Event*)
{
	q_->timeout();
}

PacedQueue::PacedQueue() : packets_(0), drops_(0), delay_sum_(0.0), delay_max_(0.0), timer_(this)
{
	bind("packets_", &packets_);
	bind("drops_", &drops_);
	bind("delay_sum_", &delay_sum_);
	bind("delay_max_", &delay_max_);
}

int PacedQueue::command(int argc, const char*const* argv)
{
	if (argc == 2 && strcmp(argv[1], "reset-stats") == 0) {
		packets_ = 0;
		drops_ = 0;
		delay_sum_ = 0.0;
		delay_max_ = 0.0;
		return TCL_OK;
	}
	return Queue::command(argc, argv);
}

void PacedQueue::kick()
{
	if (blocked_)
		return;
	Packet* p = deque();
	if (p == 0)
		return;
	utilUpdate(last_change_, now(), blocked_);
	last_change_ = now();
	blocked_ = 1;
	target_->recv(p, &qh_);
}

Packet* PacedQueue::handed(Packet* p, double arrival)
{
	double d = now() - arrival;
	packets_++;
	delay_sum_ += d;
	if (d > delay_max_)
		delay_max_ = d;
	return p;
}

void PacedQueue::wake_at(double t)
{
	// resched, not sched: this may run inside the timer's own expire().
	timer_.resched(t > now() ? t - now() : 0.0);
}

void PacedQueue::sleep()
{
	if (timer_.status() == TimerHandler::TIMER_PENDING)
		timer_.cancel();
}
