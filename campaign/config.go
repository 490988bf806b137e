package campaign

import "github.com/gopct/gopct/pct"

func pctConfigForReplay(t Token) pct.Config {
	return pct.Config{Version: pct.SchemaVersion, Test: t.Test, Spec: pct.Spec{Name: "replay"}, Replay: t.Schedule, First: t.Execution,
		Iters: t.Execution + 1, Workers: 1, Stall: 30, LazyTime: t.LazyTime, Sub: t.Sub,
		MaxSteps: t.MaxSteps, Timeout: t.Timeout, MaxDelay: t.MaxDelay, Sites: t.Sites, Race: t.Race}
}
