package store

import (
	"context"
	"database/sql"
	"time"

	"forma/internal/form"
)

// AnalyticsRecord is the stored analysis of a form (one per form).
type AnalyticsRecord struct {
	ID             int64
	FormID         int64
	TotalResponses int
	CompletionRate float64
	Insights       string // JSON
	AnalyzedAt     time.Time
}

// SaveAnalytics stores a form's analysis, replacing the previous one in place (the
// id stays the same), sets its id and time, and records charge c, in one
// transaction (see charge).
func (s *Store) SaveAnalytics(ctx context.Context, a *AnalyticsRecord, c *Charge) error {
	return s.charge(ctx, c, func(tx *sql.Tx) error {
		a.AnalyzedAt = s.Now()
		return tx.QueryRowContext(ctx, `INSERT INTO analytics (form_id, total_responses, completion_rate, insights, analyzed_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (form_id) DO UPDATE SET total_responses = excluded.total_responses,
			completion_rate = excluded.completion_rate, insights = excluded.insights, analyzed_at = excluded.analyzed_at
		RETURNING id`, a.FormID, a.TotalResponses, a.CompletionRate, a.Insights, ms(a.AnalyzedAt)).Scan(&a.ID)
	})
}

// GetAnalytics returns a form's analysis; NotFound before the first.
func (s *Store) GetAnalytics(ctx context.Context, formID int64) (*AnalyticsRecord, error) {
	var a AnalyticsRecord
	var at int64
	err := s.read.QueryRowContext(ctx, `SELECT id, form_id, total_responses, completion_rate, insights, analyzed_at
		FROM analytics WHERE form_id = $1`, formID).Scan(&a.ID, &a.FormID, &a.TotalResponses, &a.CompletionRate, &a.Insights, &at)
	if err != nil {
		if err == sql.ErrNoRows {
			return nil, form.Errorf(form.NotFound, "Analytics have not been generated for this form yet; POST /forms/{id}/analytics/generate first")
		}
		return nil, err
	}
	a.AnalyzedAt = fromMS(at)
	return &a, nil
}

// Conversation is a chat about a form's responses.
type Conversation struct {
	ID        int64
	FormID    int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Message is one message of a conversation.
type Message struct {
	ID             int64
	ConversationID int64
	Role           string
	Content        string
	CreatedAt      time.Time
}

// CreateConversation starts a conversation about a form.
func (s *Store) CreateConversation(ctx context.Context, formID int64) (*Conversation, error) {
	now := s.Now()
	c := &Conversation{FormID: formID, CreatedAt: now, UpdatedAt: now}
	err := s.write.QueryRowContext(ctx, `INSERT INTO conversations (form_id, created_at, updated_at) VALUES ($1, $2, $2) RETURNING id`,
		formID, ms(now)).Scan(&c.ID)
	return c, err
}

// GetConversation returns a conversation of a form; NotFound otherwise.
func (s *Store) GetConversation(ctx context.Context, formID, id int64) (*Conversation, error) {
	return scanConversation(s.read.QueryRowContext(ctx, `SELECT id, form_id, created_at, updated_at FROM conversations
		WHERE id = $1 AND form_id = $2`, id, formID))
}

func scanConversation(row scanner) (*Conversation, error) {
	var c Conversation
	var created, updated int64
	if err := row.Scan(&c.ID, &c.FormID, &created, &updated); err != nil {
		return nil, translate(err, "Conversation")
	}
	c.CreatedAt, c.UpdatedAt = fromMS(created), fromMS(updated)
	return &c, nil
}

// ListConversations returns a page of a form's conversations, most recently updated
// first, and their total, read in one snapshot.
func (s *Store) ListConversations(ctx context.Context, formID int64, limit, offset int) ([]Conversation, int, error) {
	var list []Conversation
	total, err := s.readPage(ctx, limit, offset, false,
		counter(ctx, `SELECT COUNT(*) FROM conversations WHERE form_id = $1`, formID),
		func(q querier, w window) (err error) {
			list, err = listConversations(ctx, q, formID, w)
			return err
		})
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

func listConversations(ctx context.Context, q querier, formID int64, w window) ([]Conversation, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, form_id, created_at, updated_at FROM conversations WHERE form_id = $1
		ORDER BY updated_at DESC, id DESC LIMIT $2 OFFSET $3`, formID, w.limit, w.offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	list := []Conversation{}
	for rows.Next() {
		c, err := scanConversation(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *c)
	}
	return list, rows.Err()
}

// DeleteConversation removes a conversation of a form with its messages.
func (s *Store) DeleteConversation(ctx context.Context, formID, id int64) error {
	res, err := s.write.ExecContext(ctx, `DELETE FROM conversations WHERE id = $1 AND form_id = $2`, id, formID)
	if err != nil {
		return err
	}
	return requireRow(res, "Conversation")
}

// Messages returns a page of a conversation's messages in chronological order, and
// their total, read in one snapshot.
func (s *Store) Messages(ctx context.Context, conversationID int64, limit, offset int) ([]Message, int, error) {
	var list []Message
	total, err := s.readPage(ctx, limit, offset, false,
		counter(ctx, `SELECT COUNT(*) FROM messages WHERE conversation_id = $1`, conversationID),
		func(q querier, w window) (err error) {
			list, err = listMessages(ctx, q, conversationID, w)
			return err
		})
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

func listMessages(ctx context.Context, q querier, conversationID int64, w window) ([]Message, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, conversation_id, role, content, created_at FROM messages
		WHERE conversation_id = $1 ORDER BY id LIMIT $2 OFFSET $3`, conversationID, w.limit, w.offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	list := []Message{}
	for rows.Next() {
		var m Message
		var created int64
		if err := rows.Scan(&m.ID, &m.ConversationID, &m.Role, &m.Content, &created); err != nil {
			return nil, err
		}
		m.CreatedAt = fromMS(created)
		list = append(list, m)
	}
	return list, rows.Err()
}

// AddExchange stores a user message and the assistant's answer, moves the
// conversation's updatedAt, and records charge c, in one transaction (see charge).
func (s *Store) AddExchange(ctx context.Context, conversationID int64, user, assistant string, c *Charge) (*Message, *Message, error) {
	now := s.Now()
	msgs := []*Message{{ConversationID: conversationID, Role: "user", Content: user, CreatedAt: now},
		{ConversationID: conversationID, Role: "assistant", Content: assistant, CreatedAt: now}}
	err := s.charge(ctx, c, func(tx *sql.Tx) error {
		for _, m := range msgs {
			if err := tx.QueryRowContext(ctx, `INSERT INTO messages (conversation_id, role, content, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
				m.ConversationID, m.Role, m.Content, ms(now)).Scan(&m.ID); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET updated_at = $1 WHERE id = $2`, ms(now), conversationID)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return msgs[0], msgs[1], nil
}
