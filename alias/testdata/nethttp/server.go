// Package server is the benchmark program of the alias analysis: a small
// JSON-over-HTTP service whose test pulls in net/http and encoding/json.
package server

import (
	"encoding/json"
	"net/http"
	"sync"
)

type Account struct {
	ID      string `json:"id"`
	Balance int    `json:"balance"`
}

type Bank struct {
	mu       sync.Mutex
	accounts map[string]*Account
	log      []string
}

var defaultBank = NewBank()

func NewBank() *Bank { return &Bank{accounts: map[string]*Account{}} }

func (b *Bank) Deposit(id string, n int) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.accounts[id]
	if a == nil {
		a = &Account{ID: id}
		b.accounts[id] = a
	}
	a.Balance += n
	b.log = append(b.log, id)
	return a.Balance
}

func (b *Bank) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     string `json:"id"`
		Amount int    `json:"amount"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	bal := b.Deposit(req.ID, req.Amount)
	json.NewEncoder(w).Encode(Account{ID: req.ID, Balance: bal})
}
