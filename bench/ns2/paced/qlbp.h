// Queue/QLBP: Queue Length Based Pacing, paper Q Sec II-C/D (Cai, Wolf,
// Gong), as the queue in front of a link. See qlbp.cc for the model.
#ifndef ns_qlbp_h
#define ns_qlbp_h

#include "paced_queue.h"

class QLBP : public PacedQueue {
public:
	QLBP();
	void timeout();
protected:
	void enque(Packet* p);
	Packet* deque();
private:
	// Paper Q eq. 1: the output rate (bits/s) at queue length q (packets).
	double rate(int q) const;

	double mu_max_;   // bits/s
	double mu_min_;   // bits/s
	int qmax_;        // Q_max, packets
	double link_bw_;  // C, the link's rate (bits/s)
	TimedFifo fifo_;  // the delay queue
	double free_at_;  // when the next packet may leave (s)
};

#endif
