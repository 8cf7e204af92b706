// Package mail sends a form's email notifications (form.Notifications): the
// owner notification, each answer as a "question: answer" line with a link to
// the response in the dashboard, and the respondent's confirmation, with
// answers piped into its subject and message.
//
// The emails go through a durable outbox, as webhooks do: the store queues one
// job per message in the transaction that completes the submission
// (store.queueMail), and a Sender takes the due jobs, builds each message with
// go-mail and hands it to the configured SMTP server. A failed attempt is
// tried again after a backoff, up to MaxAttempts in all, and every attempt is
// logged (store.MailLogs); a submission never waits for, or fails with, its
// email. Mail is sent at least once: an attempt interrupted by a stopping
// server is made again.
//
// No header takes user text as it is: answers piped into a subject and a
// form's title lose their line breaks and control characters (headerText)
// before go-mail, which also refuses them, encodes the header.
package mail
