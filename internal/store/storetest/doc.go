// Package storetest is the behaviour suite of the store: one set of black-box tests,
// written against the store's exported API only, that every dialect must pass.
//
// Each test runs once per dialect through servertest.ForEachDialect: on a fresh
// SQLite file always, and on a fresh PostgreSQL schema when FORMA_TEST_DATABASE_URL
// names a server (for example
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable). A store change lands
// only with both green.
//
// The tests assert what a user of Forma would notice: what is found and what is
// NotFound, which writes conflict, that failed updates leave nothing behind, that
// question positions stay 1..n, that daily request limits are exact under
// concurrency (also across two processes sharing PostgreSQL), and that the database
// never holds an API key in the clear. Time is pinned through Store.Now; nothing
// sleeps.
//
// The package has no non-test code besides this comment.
package storetest
