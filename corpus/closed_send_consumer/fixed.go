package closed_send_consumer

// AuditLogFixed never closes from the receiving side: after a failure the
// writer keeps draining (and dropping) records until the producer closes.
type AuditLogFixed struct {
	in   chan string
	sink *Sink
	err  error
	done chan struct{}
}

func NewAuditLogFixed(sink *Sink) *AuditLogFixed {
	a := &AuditLogFixed{in: make(chan string, 4), sink: sink, done: make(chan struct{})}
	go a.run()
	return a
}

func (a *AuditLogFixed) run() {
	defer close(a.done)
	for rec := range a.in {
		if a.err != nil {
			continue // drop records after the first failure
		}
		if err := a.sink.Write(rec); err != nil {
			a.err = err
		}
	}
}

func (a *AuditLogFixed) Log(rec string) { a.in <- rec }

func (a *AuditLogFixed) Close() error {
	close(a.in)
	<-a.done
	return a.err
}
