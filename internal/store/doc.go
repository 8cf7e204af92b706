// Package store persists Forma's state in SQLite (the embedded default) or
// PostgreSQL (for several nodes), with one set of plain SQL statements and the few
// dialect differences kept in store.go. Forms with their questions are also kept
// in memory, and never served stale (formcache.go says how, on each database).
//
// # Group commit
//
// The writes that come with every request under load — one-shot submissions
// (CreateSubmission), session starts, saves and completions (StartSession,
// UpdateSession, CompleteSession) and the daily request counter (CountRequest) —
// do not commit one by one. Each caller queues its write and waits; writer
// goroutines (groupcommit.go) commit the queued writes together, so that many
// submissions share one transaction and one fsync:
//
//   - A batch forms without waiting: a writer takes the first queued write and,
//     with it, every write already queued, up to maxBatch (256). Under load, the
//     writes that arrive while one batch commits make up the next; a lone write
//     commits at once, so group commit adds no latency when idle. A write waits
//     for at most the batch in progress and its own, each some 0.1 ms of
//     statements per write on SQLite (a batch of 64 submissions: under 10 ms) and
//     one fsync. At most queueLen (1024) writes wait; beyond that, callers wait to
//     be queued.
//   - SQLite has one writer goroutine, on its one writer connection; PostgreSQL
//     has four, each committing its own batches side by side.
//   - A batch runs its writes one after the other in one transaction, then
//     commits; each caller is answered nil only after that COMMIT has returned.
//   - When a write fails (a refused answer, a taken id, a trigger, a driver
//     error), the transaction is rolled back and that write's caller gets its
//     error: nothing of it is stored. The other writes run again in a new
//     transaction, each inside its own SAVEPOINT this time, so that any further
//     failure rolls back only that write's statements and the rest go on. The
//     happy path thus pays for no savepoints (on PostgreSQL each is a round trip),
//     and a batch is run at most twice, however many of its writes fail.
//   - When the transaction fails as a whole (it cannot begin, a savepoint fails,
//     the COMMIT fails), nothing of it is stored, and each write not yet answered
//     is retried alone in a transaction of its own: only the write at fault gets
//     an error. A write's function may therefore run more than once; it reads and
//     writes only through the transaction it is given.
//   - A caller whose context ends while its write is still queued withdraws it:
//     it gets the context's error and nothing of it is written. Once a writer has
//     begun the write, the caller waits for the batch's outcome, whatever its
//     context, so that an answer never contradicts what is stored.
//   - Writes that lock an existing row (a session being saved or completed, an
//     API key's counter for a day) run after those that only insert, in the order
//     of that row, so that concurrent batches on PostgreSQL (other writers, other
//     nodes) never wait for each other in a cycle.
//   - Completions of a form with a response limit count its responses in the
//     batch's transaction (checkRoom). On PostgreSQL the batch first locks those
//     forms' rows, in id order, before anything else (lockLimitedForms): the
//     count stays exact until the COMMIT, and the order keeps batches out of
//     cycles. Forms without a limit take no such lock.
//   - The concurrent requests of one API key share one counting write
//     (counter.go): two statements a batch for the key, not two a request.
//   - Close stops queueing, commits what is queued, then closes the connections.
//
// Other writes (forms, questions, keys, credits, the outbox workers) are rarer and
// commit in their own transactions (inTx).
//
// # Durability
//
// SQLite runs with synchronous=FULL in WAL mode: a COMMIT returns after the WAL is
// fsynced. PostgreSQL keeps its default synchronous_commit=on. Every write above
// is acknowledged only after its batch's COMMIT has returned, so a crash or a power
// cut loses no acknowledged submission and no counted request: the daily counter
// shares the submissions' commits rather than paying an fsync of its own. What a
// power cut can lose is the batch in flight — submissions and request counts whose
// callers were not answered yet (their HTTP requests fail or time out, and
// the API requests they counted did not run). A submission's webhook job is in its
// submission's transaction: it exists if and only if the submission does.
package store
