package pct

// gateSize is the number of memory-site switches in gate (gate.go): at
// least the number of sites. The instrumenter replaces this file in the
// runtime it generates with the exact count (instrument.gateSizeSource),
// so a generated site id beyond it cannot compile; this value serves the
// package's own tests.
const gateSize = 1 << 16
