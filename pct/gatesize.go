package pct

// gateSize is the number of memory-site switches in gate (gate.go): at
// least the number of sites. A build whose site table is larger than
// SharedGateSize gets a runtime of its own in which the instrumenter
// replaces this file with the exact count (instrument.gateSizeSource), so
// a generated site id beyond the gate cannot compile.
const gateSize = SharedGateSize
