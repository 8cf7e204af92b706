package store

import (
	"sync"
	"time"
)

// The key cache keeps verified API keys with their accounts in memory: every
// authenticated API request needs its key, and reading it (a join of the key and
// its account) was the largest cost of a cheap request such as GET /forms/{id}.
//
//   - Revocation takes effect at once, on every node and for every process
//     sharing the database (the CLI's "forma key revoke" too): a cached key is
//     not trusted on its own, as every authenticated request counts itself
//     (CountRequest), and that write in the database refuses a revoked or
//     deleted key. RevokeKey also evicts the key from this process's cache.
//   - What else a key carries (its account's tier, which "forma account
//     set-tier" changes from another process) is served at most keyCacheTTL
//     old. SetTier in this process empties the cache.
//   - Only keys found live are kept (an unknown key is read every time, so a
//     stream of guesses cannot fill the cache); at most maxCachedKeys, an
//     arbitrary one making room when full. A load that overlaps an eviction is
//     answered but not kept (epoch), as in the form cache.
type keyCache struct {
	mu     sync.Mutex
	byHash map[string]cachedKey
	epoch  uint64
}

// keyCacheTTL is how long a verified key, with its account's tier, is used
// without reading it again (README, "API keys and limits").
const keyCacheTTL = 10 * time.Second

// maxCachedKeys bounds the key cache (some 300 bytes a key).
const maxCachedKeys = 10000

type cachedKey struct {
	key     APIKey
	account Account
	until   time.Time
}

func newKeyCache() *keyCache { return &keyCache{byHash: map[string]cachedKey{}} }

// lookup returns copies of the key of hash and its account while they are
// fresh at now (ok=false otherwise), and the epoch a load must be kept under.
func (c *keyCache) lookup(hash string, now time.Time) (*APIKey, *Account, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byHash[hash]
	if !ok || !now.Before(e.until) {
		return nil, nil, c.epoch, false
	}
	k, a := e.key, e.account
	return &k, &a, c.epoch, true
}

// put keeps k and a until until, unless an eviction happened since epoch.
func (c *keyCache) put(k *APIKey, a *Account, until time.Time, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		return
	}
	if _, ok := c.byHash[k.Hash]; !ok && len(c.byHash) >= maxCachedKeys {
		for h := range c.byHash {
			delete(c.byHash, h)
			break
		}
	}
	c.byHash[k.Hash] = cachedKey{key: *k, account: *a, until: until}
}

// evict forgets the key id, or every key when id is 0, and makes loads that
// began before forget theirs.
func (c *keyCache) evict(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	for h, e := range c.byHash {
		if id == 0 || e.key.ID == id {
			delete(c.byHash, h)
		}
	}
}

// The credit cache keeps, per account, the credits used since the start of its
// billing cycle (Balance), which every authenticated API request reports in
// its headers. Credits are charged only by charge, which evicts the account
// when its transaction ends, so the cache is exact. It is used on SQLite
// only, where this process makes every charge (the CLI charges none); on
// PostgreSQL another node may charge, and Balance reads the ledger every time.
type creditCache struct {
	mu    sync.Mutex
	used  map[int64]cachedCredits
	epoch uint64
}

type cachedCredits struct {
	since time.Time
	used  int
}

func newCreditCache() *creditCache { return &creditCache{used: map[int64]cachedCredits{}} }

// lookup returns the credits account used since since, when cached, and the
// epoch a load must be kept under.
func (c *creditCache) lookup(account int64, since time.Time) (int, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.used[account]
	return e.used, c.epoch, ok && e.since.Equal(since)
}

// put keeps used for account since since, unless an eviction happened since
// epoch. The cache holds one entry per account that made an API request.
func (c *creditCache) put(account int64, since time.Time, used int, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch == epoch {
		c.used[account] = cachedCredits{since: since, used: used}
	}
}

// evict forgets account, and makes loads that began before forget theirs.
func (c *creditCache) evict(account int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	delete(c.used, account)
}
