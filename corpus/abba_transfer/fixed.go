package abba_transfer

// BankFixed locks the two accounts in ID order, whatever the direction.
type BankFixed struct {
	accounts map[int]*Account
}

func NewBankFixed(balances ...int) *BankFixed {
	b := &BankFixed{accounts: make(map[int]*Account)}
	for i, bal := range balances {
		b.accounts[i] = &Account{ID: i, balance: bal}
	}
	return b
}

func (b *BankFixed) Transfer(from, to, amount int) error {
	src, dst := b.accounts[from], b.accounts[to]
	first, second := src, dst
	if second.ID < first.ID {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if src.balance < amount {
		return ErrInsufficient
	}
	src.balance -= amount
	dst.balance += amount
	return nil
}

func (b *BankFixed) Total() int {
	sum := 0
	for i := 0; i < len(b.accounts); i++ {
		a := b.accounts[i]
		a.mu.Lock()
		sum += a.balance
		a.mu.Unlock()
	}
	return sum
}
