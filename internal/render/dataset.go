package render

import (
	"container/list"
	"context"
	"slices"
	"sync"
	"time"

	"forma/internal/ai/query"
	"forma/internal/form"
	"forma/internal/store"
)

// DatasetBudget bounds the responses that the datasets kept in memory hold, over
// all forms (see Dataset).
const DatasetBudget = 150_000

// Dataset returns what the query engine computes from: the form f with its
// completed responses, oldest first, and the count of sessions started on it. The
// AI features and the dashboard's summaries read the same figures from it.
//
// The dataset of a form is kept, and served again while the form's responses and
// the form itself are unchanged: each call reads the responses' version
// (store.ResponsesVersion, one indexed query, which sees what every node wrote,
// so a response added or deleted on any node is in the next dataset) and compares
// the form's UpdatedAt. A kept dataset also keeps its query engine
// (query.Dataset.Engine), so a chat message over a large form reloads and
// recomputes nothing. When responses were only added, just those are loaded and
// appended to a copy of the kept ones; anything else loads them all again.
//
// Datasets are kept up to DatasetBudget responses in all, the least recently used
// dropped first; a form with more responses than that is loaded on every call.
// A kept response costs about 1 KB with ten questions answered, so the budget
// holds some 150 MB at most, with what the engine works out over it.
func (s *Submissions) Dataset(ctx context.Context, f *form.Form) (*query.Dataset, error) {
	v, err := s.store.ResponsesVersion(ctx, f.ID)
	if err != nil {
		return nil, err
	}
	k := s.datasets.get(f.ID)
	if k != nil && k.version == v && k.updated.Equal(f.UpdatedAt) {
		return k.ds, nil
	}
	ds, err := s.dataset(ctx, f, k, v)
	if err != nil {
		return nil, err
	}
	s.datasets.put(f, ds)
	return ds, nil
}

// dataset loads the dataset of f at version v: when responses were only added
// since the kept dataset k, only those, and the new dataset follows k's (its
// engine starts from what k's has read); else all of them.
func (s *Submissions) dataset(ctx context.Context, f *form.Form, k *kept, v store.ResponsesVersion) (*query.Dataset, error) {
	if k != nil && v.Completed >= k.version.Completed {
		since := time.UnixMilli(k.version.LastCompleted)
		added, err := s.load(ctx, f.ID, &since, v.Completed-k.version.Completed)
		if err != nil {
			return nil, err
		}
		if all := k.grown(added, v); all != nil {
			return query.Following(k.ds, f, v.Started, all), nil
		}
	}
	responses, err := s.load(ctx, f.ID, nil, v.Completed)
	if err != nil {
		return nil, err
	}
	return &query.Dataset{Form: f, Started: v.Started, Responses: responses}, nil
}

// load reads a form's completed responses, oldest first, all or those completed
// since a time; about expected of them, which the list is made to hold at first.
func (s *Submissions) load(ctx context.Context, formID int64, since *time.Time, expected int) ([]form.Submission, error) {
	list := make([]form.Submission, 0, max(expected, 0))
	err := s.store.EachResponse(ctx, formID, store.ResponseFilter{Since: since, Ascending: true}, func(sub *form.Submission) error {
		list = append(list, *sub)
		return nil
	})
	return list, err
}

// datasets is a least-recently-used cache of datasets by form, bounded by the
// responses they hold.
type datasets struct {
	mu     sync.Mutex
	budget int                     // responses
	size   int                     // responses held
	order  *list.List              // of *kept, most recently used first
	byForm map[int64]*list.Element // form id → its element of order
}

// kept is a dataset and what it was loaded from.
type kept struct {
	formID  int64
	updated time.Time // the form's UpdatedAt
	version store.ResponsesVersion
	ds      *query.Dataset
}

// grown returns the kept responses followed by those of added (read from the
// kept version's latest completion on) that they lack, if that makes version v
// exactly: the count, the latest completion and the checksum all agree, as they
// do when responses were only added. Otherwise, nil.
func (k *kept) grown(added []form.Submission, v store.ResponsesVersion) []form.Submission {
	rs, was := k.ds.Responses, k.version
	have := map[string]bool{} // kept responses completed at the latest time
	for i := len(rs) - 1; i >= 0 && rs[i].SubmittedAt().UnixMilli() == was.LastCompleted; i-- {
		have[rs[i].ID] = true
	}
	var fresh []form.Submission
	n, last, sum := was.Completed, was.LastCompleted, was.TimeSum
	for _, r := range added {
		if !have[r.ID] {
			at := r.SubmittedAt().UnixMilli()
			fresh, n, last, sum = append(fresh, r), n+1, max(last, at), sum+at%86_400_000
		}
	}
	if n != v.Completed || last != v.LastCompleted || sum != v.TimeSum {
		return nil
	}
	// Clipped, so that appending copies: readers of the kept dataset share its array.
	return append(slices.Clip(rs), fresh...)
}

func newDatasets(budget int) *datasets {
	return &datasets{budget: budget, order: list.New(), byForm: map[int64]*list.Element{}}
}

// get returns the kept dataset of a form, marked as the most recently used; nil
// when none is kept.
func (c *datasets) get(formID int64) *kept {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byForm[formID]
	if !ok {
		return nil
	}
	c.order.MoveToFront(el)
	return el.Value.(*kept)
}

// put keeps the dataset of f in place of the one it had, and drops the least
// recently used datasets while over the budget. The version kept is that of the
// dataset's own responses, not the one read before loading them: a response
// completed between the two reads is in the dataset, and a version that did not
// count it would have the next load append it a second time.
func (c *datasets) put(f *form.Form, ds *query.Dataset) {
	v := store.VersionOf(ds.Started, ds.Responses)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.remove(f.ID)
	if len(ds.Responses) > c.budget {
		return
	}
	c.byForm[f.ID] = c.order.PushFront(&kept{formID: f.ID, updated: f.UpdatedAt, version: v, ds: ds})
	c.size += len(ds.Responses)
	for c.size > c.budget {
		c.remove(c.order.Back().Value.(*kept).formID)
	}
}

// remove drops the dataset of a form, if kept.
func (c *datasets) remove(formID int64) {
	el, ok := c.byForm[formID]
	if !ok {
		return
	}
	c.order.Remove(el)
	delete(c.byForm, formID)
	c.size -= len(el.Value.(*kept).ds.Responses)
}
