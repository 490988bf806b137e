package results

import (
	"bytes"
	"html/template"
	"io"
	"strings"
)

// WriteHTML writes the report as one self-contained HTML page: the tables
// of WriteReport and the plots as inline SVG (no script, no stylesheet or
// font fetched from anywhere), so it can be archived as a CI artifact and
// opened offline.
func WriteHTML(w io.Writer, ss []*Summary, title string) error {
	page := htmlPage{Title: title, Hunts: len(ss)}
	for _, s := range ss {
		if s.Bug != nil {
			page.Bugs++
		}
	}
	for _, pl := range []struct {
		title string
		draw  func([]*Summary) (string, error)
		none  string
	}{
		{"Executions to the first bug", plotFirstBug, "no hunt found a bug"},
		{"Coverage growth", plotCoverage, "no hunt recorded coverage (distinct happens-before classes; gopct explore records them)"},
		{"Speed", plotRate, "no hunt recorded its time"},
	} {
		svg, err := pl.draw(ss)
		if err != nil {
			return err
		}
		page.Plots = append(page.Plots, htmlPlot{Title: pl.title, SVG: template.HTML(svg), None: pl.none})
	}
	page.Tables = []htmlTable{{"Hunts", huntHeader, huntRows(ss)}, {"Executions to the first bug, per strategy", firstBugHeader, firstBugRows(ss)}}
	oh, orows := overheadTable(ss)
	page.Tables = append(page.Tables, htmlTable{"Time per execution (overhead against the test's fastest strategy)", oh, orows})
	page.Replays = replays(ss)
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, page); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

type htmlPage struct {
	Title       string
	Hunts, Bugs int
	Plots       []htmlPlot
	Tables      []htmlTable
	Replays     []htmlReplay
}

type htmlPlot struct {
	Title string
	SVG   template.HTML
	None  string
}

type htmlTable struct {
	Title  string
	Header []string
	Rows   [][]string
}

type htmlReplay struct{ Test, Kind, Message, Command string }

func replays(ss []*Summary) []htmlReplay {
	var out []htmlReplay
	for _, s := range ss {
		if s.Bug != nil {
			out = append(out, htmlReplay{s.Package + " " + s.Test, string(s.Bug.Kind), firstLine(s.Bug.Message), "gopct replay " + s.Bug.Replay})
		}
	}
	return out
}

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{"numeric": numeric}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 80em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }
th { background: #eef; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.plots { display: flex; flex-wrap: wrap; gap: 2em; align-items: flex-start; }
.plot svg { max-width: 100%; height: auto; }
code { font-size: 0.85em; word-break: break-all; }
.none { color: #777; font-style: italic; }
</style></head><body>
<h1>{{.Title}}</h1>
<p>{{.Hunts}} hunts, {{.Bugs}} with a bug.</p>
<div class="plots">{{range .Plots}}<div class="plot"><h2>{{.Title}}</h2>{{if .SVG}}{{.SVG}}{{else}}<p class="none">{{.None}}</p>{{end}}</div>{{end}}</div>
{{range .Tables}}<h2>{{.Title}}</h2>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td{{if numeric .}} class="n"{{end}}>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}{{if .Replays}}<h2>Replays</h2>
<table><tr><th>test</th><th>bug</th><th>message</th><th>reproduce</th></tr>
{{range .Replays}}<tr><td>{{.Test}}</td><td>{{.Kind}}</td><td>{{.Message}}</td><td><code>{{.Command}}</code></td></tr>
{{end}}</table>{{end}}
</body></html>
`))

func numeric(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.-x msk()") == ""
}
