package webhook

import "time"

// queue is what a Deliverer holds of the outbox: the jobs it claimed, waiting for
// a worker or in flight, with counts per form. Only the Run goroutine uses it.
type queue struct {
	waiting  []delivery    // oldest first
	expired  []int64       // ids of jobs whose claim grew too old before they started
	held     map[int64]int // form id → jobs waiting or in flight
	inFlight map[int64]int // form id → jobs in flight
	size     int           // jobs held in all
	running  int           // jobs in flight in all
}

func newQueue() *queue {
	return &queue{held: map[int64]int{}, inFlight: map[int64]int{}}
}

// add holds newly claimed jobs, which come oldest first.
func (q *queue) add(ds []delivery) {
	for _, dl := range ds {
		q.held[dl.job.FormID]++
	}
	q.waiting = append(q.waiting, ds...)
	q.size += len(ds)
}

// next takes the oldest waiting job whose form has fewer than PerForm deliveries
// in flight and counts it in flight; false when every waiting job's form is at its
// cap (or none waits). A job met on the way that was claimed before cutoff is set
// aside for takeExpired.
func (q *queue) next(cutoff time.Time) (delivery, bool) {
	for i := 0; i < len(q.waiting); i++ {
		dl := q.waiting[i]
		if q.inFlight[dl.job.FormID] >= PerForm {
			continue
		}
		q.waiting = append(q.waiting[:i], q.waiting[i+1:]...)
		if dl.claimed.Before(cutoff) {
			q.expired = append(q.expired, dl.job.ID)
			q.forget(dl.job.FormID)
			i--
			continue
		}
		q.inFlight[dl.job.FormID]++
		q.running++
		return dl, true
	}
	return delivery{}, false
}

// takeExpired returns and forgets the ids of the jobs next set aside.
func (q *queue) takeExpired() []int64 {
	ids := q.expired
	q.expired = nil
	return ids
}

// forget drops a job from the counts of held jobs.
func (q *queue) forget(formID int64) int {
	q.size--
	return decrement(q.held, formID)
}

// finish forgets a job whose delivery ended. It reports whether the job's form
// may be offered jobs again, having just dropped below batch.
func (q *queue) finish(formID int64) bool {
	q.running--
	decrement(q.inFlight, formID)
	return q.forget(formID) == batch-1
}

// decrement lowers a count, dropping it at zero, and returns it.
func decrement(m map[int64]int, id int64) int {
	m[id]--
	n := m[id]
	if n <= 0 {
		delete(m, id)
	}
	return n
}

// full lists the forms that hold batch jobs or more: claims skip them.
func (q *queue) full() []int64 {
	var ids []int64
	for id, n := range q.held {
		if n >= batch {
			ids = append(ids, id)
		}
	}
	return ids
}

// anyFull reports whether a form holds batch jobs or more.
func (q *queue) anyFull() bool {
	for _, n := range q.held {
		if n >= batch {
			return true
		}
	}
	return false
}

// drop empties the waiting list and returns the ids of the jobs that were in it.
func (q *queue) drop() []int64 {
	ids := make([]int64, len(q.waiting))
	for i, dl := range q.waiting {
		ids[i] = dl.job.ID
		q.forget(dl.job.FormID)
	}
	q.waiting = nil
	return ids
}
