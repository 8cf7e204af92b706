package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"forma/internal/form"
	"forma/internal/store"
)

// delivery is a claimed job made ready to send: its signed body's content and the
// secrets to sign it with, or why none could be made.
type delivery struct {
	job     store.WebhookJob
	claimed time.Time // when the claim was made, at the latest
	body    []byte
	secrets []string
	err     error
}

// target is what every delivery of one form needs.
type target struct {
	form      *form.Form
	questions []form.Question
	secrets   []string
}

// prepare renders the payloads of a batch of claimed jobs, reading each form, its
// questions and secrets, and its submissions once for the batch.
func (d *Deliverer) prepare(ctx context.Context, jobs []store.WebhookJob) []delivery {
	out := make([]delivery, len(jobs))
	byForm := map[int64][]*delivery{}
	for i, j := range jobs {
		out[i].job = j
		byForm[j.FormID] = append(byForm[j.FormID], &out[i])
	}
	for formID, ds := range byForm {
		d.prepareForm(ctx, formID, ds)
	}
	return out
}

// prepareForm renders the payloads of one form's deliveries.
func (d *Deliverer) prepareForm(ctx context.Context, formID int64, ds []*delivery) {
	t, subs, err := d.load(ctx, formID, ds)
	for _, dl := range ds {
		switch sub := subs[dl.job.SessionID]; {
		case err != nil:
			dl.err = err
		case sub == nil:
			dl.err = errors.New("the submission was deleted before it could be delivered")
		default:
			dl.body, dl.err = d.payload(ctx, t, sub)
			dl.secrets = t.secrets
		}
	}
}

// load reads what the deliveries of one form need: the form, and their
// submissions by id.
func (d *Deliverer) load(ctx context.Context, formID int64, ds []*delivery) (*target, map[string]*form.Submission, error) {
	f, err := d.store.FormByID(ctx, formID)
	if err != nil {
		return nil, nil, fmt.Errorf("form could not be loaded: %w", err)
	}
	t := &target{form: f}
	if t.questions, err = d.store.AllQuestions(ctx, formID); err != nil {
		return nil, nil, err
	}
	if t.secrets, err = d.store.WebhookSecrets(ctx, formID, NewSecret); err != nil {
		return nil, nil, err
	}
	ids := make([]string, len(ds))
	for i, dl := range ds {
		ids[i] = dl.job.SessionID
	}
	list, err := d.store.GetResponses(ctx, formID, ids)
	subs := make(map[string]*form.Submission, len(list))
	for i := range list {
		subs[list[i].ID] = &list[i]
	}
	return t, subs, err
}

// payload renders one submission's body.
func (d *Deliverer) payload(ctx context.Context, t *target, sub *form.Submission) ([]byte, error) {
	data, err := d.render.Data(ctx, t.questions, sub)
	if err != nil {
		return nil, err
	}
	return json.Marshal(Payload{FormID: t.form.ID, FormName: t.form.Title, SubmissionID: sub.ID,
		SubmittedAt: form.Timestamp(*sub.CompletedAt), Data: data, Hidden: sub.Hidden})
}
