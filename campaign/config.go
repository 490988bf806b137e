package campaign

import "github.com/gopct/gopct/pct"

func pctConfigForReplay(t Token) pct.Config {
	cfg := pct.Config{Version: pct.SchemaVersion, Test: t.Test, Spec: pct.Spec{Name: "replay"}, Replay: t.Schedule, First: t.Execution,
		Iters: t.Execution + 1, Workers: 1, Stall: 30, LazyTime: t.LazyTime, Sub: t.Sub, Seed: t.Seed,
		MaxSteps: t.MaxSteps, Timeout: t.Timeout, MaxDelay: t.MaxDelay, Epoch: t.Epoch, InitLead: t.InitLead, Sites: t.Sites, Race: t.Race, RandFixed: exhaustiveSpec(t.Spec),
		Loop: t.Loop, Objects: t.Objects}
	if t.PriorStride > 0 && t.PriorFirst < t.Execution {
		spec := t.Spec
		cfg.Prior, cfg.PriorFirst, cfg.PriorStride, cfg.VarSites = &spec, t.PriorFirst, t.PriorStride, t.VarSites
		cfg.PriorChunk, cfg.PriorDone = t.PriorChunk, t.PriorDone
	}
	return cfg
}
