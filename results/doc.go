// Package results holds the records gopct reports (hunt summaries, bugs,
// replay outcomes) and renders them as text and tables. The JSON field
// names of Summary and Bug are a contract with users and later tools
// (reports, CI mode): add fields, never rename them.
package results
